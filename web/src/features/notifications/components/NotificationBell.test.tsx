import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { type Call, fakeServer, renderRoutes } from '../../../test/fakes';
import type { AppNotification } from '@kora/contracts';
import { NotificationBell } from './NotificationBell';

const notification = (id: string, trackId: string | null, status: 'SENT' | 'READ' = 'SENT'): AppNotification => ({
  id,
  type: 'PUSH',
  kind: trackId ? 'PREVIEW_READY' : 'ANNOUNCEMENT',
  title: `Title ${id}`,
  message: `Message ${id}`,
  i18n: {
    en: { title: `Title ${id}`, message: `Message ${id}` },
    fr: { title: `Title ${id}`, message: `Message ${id}` },
  },
  trackId,
  status,
  createdAt: '2026-11-22T10:00:00.000Z',
});

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe('the notification bell', () => {
  let calls: Call[];
  beforeEach(() => {
    ({ calls } = fakeServer({
      'GET /api/notifications': () => ({
        status: 200,
        body: {
          notifications: [notification('preview', 'track-7'), notification('news', null, 'READ')],
          unreadCount: 1,
        },
      }),
      'PATCH /api/notifications/preview/read': () => ({ status: 200, body: { success: true } }),
    }));
  });

  const render = () =>
    renderRoutes([
      { path: '/', element: <NotificationBell /> },
      { path: '/dashboard', element: <NotificationBell /> },
    ]);

  it("opens a track's notification in the studio, marks it read and closes the list", async () => {
    const { router } = render();
    await flush();
    fireEvent.click(screen.getByRole('button', { name: /notification/i, expanded: false }));
    fireEvent.click(screen.getByRole('button', { name: /Title preview/ }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/dashboard?track=track-7');
    await flush();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.path)).toEqual([
      '/api/notifications/preview/read',
    ]);
    expect(screen.getByRole('button', { name: /notification/i, expanded: false })).toBeTruthy();
  });

  it('a notification about no track stays where it is', async () => {
    const { router } = render();
    await flush();
    fireEvent.click(screen.getByRole('button', { name: /notification/i, expanded: false }));
    fireEvent.click(screen.getByRole('button', { name: /Title news/ }));
    expect(router.state.location.pathname).toBe('/');
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });
});
