import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import type { AppNotification } from '@kora/contracts';
import { NotificationToasts } from './NotificationToasts';

const notification = (id: string, minute: number, status: 'SENT' | 'READ' = 'SENT'): AppNotification => ({
  id,
  type: 'PUSH',
  kind: 'ANNOUNCEMENT',
  title: `Titre ${id}`,
  message: `Message ${id}`,
  i18n: { en: { title: `Title ${id}`, message: `Message ${id}` }, fr: { title: `Titre ${id}`, message: 'fr' } },
  trackId: null,
  status,
  createdAt: `2026-11-22T10:0${minute}:00.000Z`,
});

/**
 * Lets the fetches and renders in flight finish. The fake clock moves 1 ms a step: a zero-delay timer set while
 * timers run is due 1 ms later.
 */
const flush = async () => {
  for (let i = 0; i < 20; i += 1) await act(() => jest.advanceTimersByTimeAsync(1));
};
/** Moves the clock in 100 ms steps, so React commits (and sets its timers) as it would in a browser. */
const advance = async (ms: number) => {
  for (let left = ms; left > 0; left -= 100) await act(() => jest.advanceTimersByTimeAsync(Math.min(100, left)));
};

describe('notification toasts', () => {
  let list: AppNotification[];
  let server: ReturnType<typeof fakeServer>;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    list = [notification('n3', 3), notification('n2', 2), notification('n1', 1), notification('old', 0, 'READ')];
    server = fakeServer({
      'GET /api/notifications': () => ({ status: 200, body: { notifications: list, unreadCount: 3 } }),
      'GET /api/user/profile': () => ({ status: 404, body: {} }),
      'PATCH /api/notifications/n3/read': () => ({ status: 200, body: { success: true } }),
    });
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  const toastTitles = () => screen.queryAllByText(/^Title /).map((element) => element.textContent);

  it('shows new unread ones oldest first, one second apart, for 4 s each; closing one marks it read', async () => {
    renderRoutes([{ path: '/', element: <NotificationToasts /> }]);
    await flush();
    expect(toastTitles()).toEqual(['Title n1']);
    await advance(1000);
    expect(toastTitles()).toEqual(['Title n1', 'Title n2']);
    await advance(1000);
    expect(toastTitles()).toEqual(['Title n1', 'Title n2', 'Title n3']);
    // n1 appeared at 0 and closes at 4 s, by itself: it stays unread.
    await advance(2000);
    expect(toastTitles()).toEqual(['Title n2', 'Title n3']);
    expect(server.calls.some((call) => call.method === 'PATCH')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Close the notification “Title n3”' }));
    expect(toastTitles()).toEqual(['Title n2']);
    await flush();
    expect(server.calls.filter((call) => call.method === 'PATCH').map((call) => call.path)).toEqual([
      '/api/notifications/n3/read',
    ]);
    expect(screen.queryByText('Title old')).toBeNull();
  });

  it('on a phone shows two at once: the third waits until one closes, then gets its full 4 s', async () => {
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 375 });
    try {
      renderRoutes([{ path: '/', element: <NotificationToasts /> }]);
      await flush();
      await advance(2500);
      expect(toastTitles()).toEqual(['Title n1', 'Title n2']);
      // n1 closes at 4 s: n3 takes its place.
      await advance(1600);
      expect(toastTitles()).toEqual(['Title n2', 'Title n3']);
      await advance(1000);
      expect(toastTitles()).toEqual(['Title n3']);
      // n3 showed at about 4 s: it is still there at 7.5 s, gone by 8.5 s.
      await advance(2400);
      expect(toastTitles()).toEqual(['Title n3']);
      await advance(1000);
      expect(toastTitles()).toEqual([]);
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });

  it('shows each notification once, even when the list is fetched again or the page reloads', async () => {
    const first = renderRoutes([{ path: '/', element: <NotificationToasts /> }]);
    await flush();
    await advance(7000);
    expect(toastTitles()).toEqual([]);

    // The socket is down: the list is polled every 3 s; a new one arrives.
    list = [notification('n4', 4), ...list];
    await advance(3000);
    await flush();
    expect(toastTitles()).toEqual(['Title n4']);
    first.unmount();

    renderRoutes([{ path: '/', element: <NotificationToasts /> }]);
    await flush();
    await advance(1000);
    expect(toastTitles()).toEqual([]);
  });

  it("clicking a track's toast opens that track in the studio and marks it read", async () => {
    list = [{ ...notification('n3', 3), kind: 'PREVIEW_READY', trackId: 'track-9' }];
    const { router } = renderRoutes([
      { path: '/', element: <NotificationToasts /> },
      { path: '/dashboard', element: <NotificationToasts /> },
    ]);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: /^Title n3/ }));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.location.search).toBe('?track=track-9');
    await flush();
    expect(server.calls.filter((call) => call.method === 'PATCH').map((call) => call.path)).toEqual([
      '/api/notifications/n3/read',
    ]);
  });

  it('a notification about no track stays text: nothing to open', async () => {
    renderRoutes([{ path: '/', element: <NotificationToasts /> }]);
    await flush();
    expect(screen.getByText('Title n1').closest('button')).toBeNull();
  });
});
