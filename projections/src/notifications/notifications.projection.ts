import {
  type NotificationDocument,
  type NotificationEvent,
  NOTIFICATION_EVENT_TYPES,
} from '@kora/notifications/contracts';
import { defineProjection } from '@kora/kernel';

/** One document per notification; the bell lists a user's newest first. */
export const notificationsProjection = defineProjection<NotificationEvent, NotificationDocument>({
  name: 'notifications',
  version: 1,
  collection: 'notifications',
  indexes: [{ fields: { userId: 1, createdAt: -1 } }],
  handles: NOTIFICATION_EVENT_TYPES.filter((type) => type !== 'NotificationAcknowledged'),
  target: (event) => (event.type === 'NotificationAcknowledged' ? null : { id: event.data.notificationId }),
  evolve(current, event) {
    switch (event.type) {
      case 'NotificationSent':
        return {
          _id: event.data.notificationId,
          userId: event.metadata.userId,
          type: event.data.type,
          kind: event.data.kind,
          title: event.data.title,
          message: event.data.message,
          trackId: event.data.trackId,
          status: 'SENT',
          createdAt: event.metadata.occurredAt,
          readAt: null,
        };
      case 'NotificationRead':
        return current && { ...current, status: 'READ', readAt: event.metadata.occurredAt };
      case 'NotificationAcknowledged':
        return current;
    }
  },
});
