import { describe, expect, it } from '@jest/globals';
import type { AppNotification, NotificationList } from '@kora/contracts';
import { addNotification, markReadIn, textOf } from './notifications';

const item = (id: string, status: 'SENT' | 'READ', createdAt: string): AppNotification => ({
  id,
  type: 'PUSH',
  kind: 'ANNOUNCEMENT',
  title: `title ${id}`,
  message: `message ${id}`,
  i18n: { en: { title: `EN ${id}`, message: 'm' }, fr: { title: `FR ${id}`, message: 'm' } },
  trackId: null,
  status,
  createdAt,
});

describe('the notification list', () => {
  it('lowers the unread count by one when one is read, never below zero', () => {
    const list: NotificationList = { notifications: [item('a', 'SENT', '2026-01-01')], unreadCount: 0 };
    markReadIn(list, 'a');
    expect(list.notifications[0]!.status).toBe('READ');
    expect(list.unreadCount).toBe(0);
  });

  it('does not count a notification read twice', () => {
    const list: NotificationList = {
      notifications: [item('a', 'SENT', '2026-01-02'), item('b', 'SENT', '2026-01-01')],
      unreadCount: 2,
    };
    markReadIn(list, 'a');
    markReadIn(list, 'a');
    expect(list.unreadCount).toBe(1);
  });

  it('adds a live notification once, newest first, and recounts the unread ones', () => {
    const list: NotificationList = { notifications: [item('a', 'READ', '2026-01-01')], unreadCount: 0 };
    addNotification(list, item('b', 'SENT', '2026-01-02'));
    addNotification(list, item('b', 'SENT', '2026-01-02'));
    expect(list.notifications.map((n) => n.id)).toEqual(['b', 'a']);
    expect(list.unreadCount).toBe(1);
  });

  it('shows the text of the interface language', () => {
    expect(textOf(item('a', 'SENT', '2026-01-01'), 'fr').title).toBe('FR a');
    expect(textOf(item('a', 'SENT', '2026-01-01'), 'en').title).toBe('EN a');
  });
});
