import type { LocalisedText, NotificationKind } from './events';

/** The notifications read model (`notifications`). */
export interface NotificationDocument {
  _id: string;
  userId: string;
  type: 'PUSH';
  kind: NotificationKind;
  title: LocalisedText;
  message: LocalisedText;
  trackId: string | null;
  /** SENT means unread. */
  status: 'SENT' | 'READ';
  createdAt: string;
  readAt: string | null;
}

export class GetNotifications {
  constructor(
    readonly userId: string,
    readonly type: 'PUSH' | null,
    readonly limit: number,
  ) {}
}

export class GetNotification {
  constructor(
    readonly userId: string,
    readonly notificationId: string,
  ) {}
}
