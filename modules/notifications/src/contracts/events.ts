import type { NotificationKind } from '@kora/contracts';
import type { DomainEvent } from '@kora/kernel';

/** Push notifications, on `notifications-{userId}`; their kinds are the ones the API sends (@kora/contracts). */
export type { NotificationKind } from '@kora/contracts';

/** A notification's text in both languages; the client shows the one of its interface. */
export interface LocalisedText {
  en: string;
  fr: string;
}

export type NotificationSent = DomainEvent<
  'NotificationSent',
  {
    notificationId: string;
    /** The channel; `PUSH` is the only one the client lists. */
    type: 'PUSH';
    kind: NotificationKind;
    title: LocalisedText;
    message: LocalisedText;
    trackId: string | null;
    /** The event or request that caused it: one cause notifies once. */
    causationId: string;
  }
>;
export type NotificationRead = DomainEvent<'NotificationRead', { notificationId: string }>;
/** The client saw the result a notification announced (once per track and kind). */
export type NotificationAcknowledged = DomainEvent<
  'NotificationAcknowledged',
  { trackId: string; notificationType: NotificationKind }
>;

export type NotificationEvent = NotificationSent | NotificationRead | NotificationAcknowledged;

export const NOTIFICATION_EVENT_TYPES = ['NotificationSent', 'NotificationRead', 'NotificationAcknowledged'] as const;
