import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { NotFoundPage } from '../features/errors/components/NotFoundPage';
import { RouteErrorPage } from '../features/errors/components/RouteErrorPage';
import { Layout } from './Layout';

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('../features/home/components/HomePage')).HomePage }),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
