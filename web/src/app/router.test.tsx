import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { RouteObject } from 'react-router-dom';
import { routes } from './router';
import { fakeServer, renderRoutes } from '../test/fakes';

/** The app's own /payment/success and /payment/cancel routes, beside a stand-in home page. */
const returnRoutes: RouteObject[] = [
  ...(routes[0]!.children ?? [])
    .filter((route) => route.path?.startsWith('payment/'))
    .map((route) => ({ ...route, path: `/${route.path}` })),
  { path: '/', element: <p>home page</p> },
];

const signedInServer = () =>
  fakeServer({ 'GET /api/user/profile': () => ({ status: 200, body: { success: true, profile: {} } }) });

function openedBy(opener: unknown) {
  Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
}

describe('the payment return pages (/payment/success, /payment/cancel)', () => {
  afterEach(() => openedBy(null));

  it('are both routes of the app', () => {
    expect(returnRoutes.map((route) => route.path)).toEqual(['/payment/success', '/payment/cancel', '/']);
  });

  for (const path of ['/payment/cancel?token=5O190127TN364715T', '/payment/success?token=5O190127TN364715T']) {
    it(`${path.split('?')[0]} closes the window the checkout opened, and stays put`, async () => {
      signedInServer();
      openedBy({ name: 'the payment panel' });
      const close = jest.spyOn(window, 'close').mockImplementation(() => undefined);
      const { router } = renderRoutes(returnRoutes, { path });
      await waitFor(() => expect(close).toHaveBeenCalledTimes(1));
      expect(router.state.location.pathname).toBe(path.split('?')[0]);
      expect(screen.queryByText('home page')).toBeNull();
      expect(screen.getByRole('status').textContent).toContain('Loading...');
    });

    it(`${path.split('?')[0]} opened on its own goes home, replacing itself in the history`, async () => {
      signedInServer();
      const close = jest.spyOn(window, 'close').mockImplementation(() => undefined);
      const { router } = renderRoutes(returnRoutes, { path });
      await screen.findByText('home page');
      expect(router.state.location.pathname).toBe('/');
      expect(router.state.historyAction).toBe('REPLACE');
      expect(close).not.toHaveBeenCalled();
    });
  }

  it('does not close a window that is its own opener', async () => {
    signedInServer();
    openedBy(window);
    const close = jest.spyOn(window, 'close').mockImplementation(() => undefined);
    renderRoutes(returnRoutes, { path: '/payment/cancel' });
    await screen.findByText('home page');
    expect(close).not.toHaveBeenCalled();
  });
});
