import type { AppNotification, NotificationList } from '@kora/contracts';

export function isNotification(value: unknown): value is AppNotification {
  const candidate = value as Partial<AppNotification> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.createdAt === 'string' &&
    (candidate.status === 'SENT' || candidate.status === 'READ')
  );
}

/** The unread count is the number of SENT notifications. */
export function countUnread(list: readonly AppNotification[]): number {
  return list.filter((item) => item.status === 'SENT').length;
}

/** Adds a live notification at the top (once), newest first. */
export function addNotification(list: NotificationList, notification: AppNotification): void {
  if (list.notifications.some((item) => item.id === notification.id)) return;
  list.notifications.unshift(notification);
  list.notifications.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  list.unreadCount = countUnread(list.notifications);
}

/** Marks one read: the unread count goes down by one, never below zero (spec §4). */
export function markReadIn(list: NotificationList, id: string): void {
  const item = list.notifications.find((candidate) => candidate.id === id);
  if (!item || item.status !== 'SENT') return;
  item.status = 'READ';
  list.unreadCount = Math.max(0, list.unreadCount - 1);
}

/** The title and message in the interface language (the API sends both). */
export function textOf(notification: AppNotification, language: string): { title: string; message: string } {
  const localized = language === 'en' ? notification.i18n?.en : notification.i18n?.fr;
  return localized ?? { title: notification.title, message: notification.message };
}

/** Where a notification leads: a track's notification opens that track in the studio; others lead nowhere. */
export function notificationLink(notification: Pick<AppNotification, 'trackId'>): string | null {
  return notification.trackId ? `/dashboard?track=${encodeURIComponent(notification.trackId)}` : null;
}
