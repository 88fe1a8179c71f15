/** What a push notification tells. */
export type NotificationKind =
  'PREVIEW_READY' | 'MASTER_READY' | 'STEMS_READY' | 'PROCESSING_FAILED' | 'PAYMENT' | 'ANNOUNCEMENT';

/**
 * A push notification as the server sends it (`GET /api/notifications`, the `notification.created` socket message);
 * SENT means unread. `title` and `message` are in the language asked for (French by default), `i18n` has both.
 */
export interface AppNotification {
  id: string;
  type: 'PUSH';
  kind: NotificationKind;
  title: string;
  message: string;
  i18n: { en: { title: string; message: string }; fr: { title: string; message: string } };
  trackId: string | null;
  status: 'SENT' | 'READ';
  createdAt: string;
}

/** What `POST /api/notifications/acknowledge` takes: the result of a track the client showed. */
export interface AcknowledgeRequest {
  trackId: string;
  notificationType: NotificationKind;
}

/** Its answer: whether this was the first acknowledgement of that result. */
export interface AcknowledgeAnswer {
  success: true;
  acknowledged: boolean;
}

/** `GET /api/notifications`: the newest 50 and how many are unread. */
export interface NotificationList {
  notifications: AppNotification[];
  unreadCount: number;
}
