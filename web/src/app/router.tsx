import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import { ProtectedRoute } from '../features/auth/components/ProtectedRoute';
import { RouteErrorPage } from '../features/errors/components/RouteErrorPage';
import { ProtectedLayout } from './ProtectedLayout';
import { PublicLayout } from './PublicLayout';
import { RootLayout } from './RootLayout';

// Pages other than the one being opened load on use: a signed-in user's first route carries neither the sign-in
// and callback pages nor the payment return and not-found pages (docs/benchmarks.md, "Web client").
const paymentReturn = async () => ({
  Component: (await import('../features/billing/components/PaymentReturnPage')).PaymentReturnPage,
});

/** The spec's route table (§2). Every page is split by route. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('../features/auth/components/LoginPage')).LoginPage }),
      },
      {
        path: 'callback',
        lazy: async () => ({ Component: (await import('../features/auth/components/CallbackPage')).CallbackPage }),
      },
      { path: 'payment/success', lazy: paymentReturn },
      { path: 'payment/cancel', lazy: paymentReturn },
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
      {
        element: <PublicLayout />,
        children: [
          {
            path: '*',
            lazy: async () => ({
              Component: (await import('../features/errors/components/NotFoundPage')).NotFoundPage,
            }),
          },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
