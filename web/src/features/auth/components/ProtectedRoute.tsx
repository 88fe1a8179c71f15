import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { saveReturnTo } from '../../../lib/session/storage';
import { useSession } from '../../../lib/session/SessionProvider';

/**
 * Loading... while the session is established; signed out, the current path is saved as the return destination and
 * the user goes to /login with history replaced.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { loading, isAuthenticated } = useSession();
  const location = useLocation();
  if (loading) {
    return (
      <main id="main" className="centered-page">
        <LoadingScreen />
      </main>
    );
  }
  if (!isAuthenticated) {
    saveReturnTo(sessionStorage, `${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/login" replace />;
  }
  return children;
}
