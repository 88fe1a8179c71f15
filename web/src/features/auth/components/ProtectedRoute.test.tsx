import { screen } from '@testing-library/react';
import { describe, expect, it } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { ProtectedRoute } from './ProtectedRoute';

const routes = [
  { path: '/login', element: <p>login route</p> },
  {
    path: '/accountSettings',
    element: (
      <ProtectedRoute>
        <p>settings content</p>
      </ProtectedRoute>
    ),
  },
];

describe('the protected-route wrapper', () => {
  it('shows Loading... while the session is being established', () => {
    fakeServer({});
    renderRoutes(routes, { path: '/accountSettings?section=security', signedIn: false });
    expect(screen.getByRole('status').textContent).toContain('Loading...');
  });

  it('saves the path and goes to /login, replacing history, when signed out', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, { path: '/accountSettings?section=security', signedIn: false });
    await screen.findByText('login route');
    expect(sessionStorage.getItem('returnTo')).toBe('/accountSettings?section=security');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the page when signed in', async () => {
    fakeServer({ 'GET /api/user/profile': () => ({ status: 200, body: { success: true, profile: {} } }) });
    renderRoutes(routes, { path: '/accountSettings' });
    await screen.findByText('settings content');
    expect(sessionStorage.getItem('returnTo')).toBeNull();
  });
});
