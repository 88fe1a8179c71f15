import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import { CallbackPage } from '../features/auth/components/CallbackPage';
import { LoginPage } from '../features/auth/components/LoginPage';
import { ProtectedRoute } from '../features/auth/components/ProtectedRoute';
import { PaymentReturnPage } from '../features/billing/components/PaymentReturnPage';
import { NotFoundPage } from '../features/errors/components/NotFoundPage';
import { RouteErrorPage } from '../features/errors/components/RouteErrorPage';
import { ProtectedLayout } from './ProtectedLayout';
import { PublicLayout } from './PublicLayout';
import { RootLayout } from './RootLayout';

/** The spec's route table (§2). Pages behind sign-in are split by route. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      { path: 'login', element: <LoginPage /> },
      { path: 'callback', element: <CallbackPage /> },
      { path: 'payment/success', element: <PaymentReturnPage /> },
      { path: 'payment/cancel', element: <PaymentReturnPage /> },
      {
        element: (
          <ProtectedRoute>
            <ProtectedLayout />
          </ProtectedRoute>
        ),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('./routes/HomeRoute')).HomeRoute }),
          },
          {
            path: 'dashboard',
            lazy: async () => ({ Component: (await import('./routes/DashboardRoute')).DashboardRoute }),
          },
          {
            path: 'accountSettings',
            lazy: async () => ({ Component: (await import('./routes/AccountSettingsRoute')).AccountSettingsRoute }),
          },
        ],
      },
      { element: <PublicLayout />, children: [{ path: '*', element: <NotFoundPage /> }] },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
