import { Outlet } from 'react-router-dom';
import { Toaster } from '../components/Toaster';

/** Every route: the page, and the short messages, which survive navigation (a toast set on /callback). */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
