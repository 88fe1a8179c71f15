import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetNotification, GetNotifications, type NotificationDocument } from '@kora/notifications/contracts';
import { findOwned, ReadStore } from '@kora/kernel';

@QueryHandler(GetNotifications)
export class GetNotificationsHandler implements IQueryHandler<GetNotifications, NotificationDocument[]> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, type, limit }: GetNotifications): Promise<NotificationDocument[]> {
    return this.reads
      .collection<NotificationDocument>('notifications')
      .find({ userId, ...(type ? { type } : {}) }, { sort: { createdAt: -1 }, limit });
  }
}

@QueryHandler(GetNotification)
export class GetNotificationHandler implements IQueryHandler<GetNotification, NotificationDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, notificationId }: GetNotification): Promise<NotificationDocument | null> {
    return findOwned(this.reads.collection<NotificationDocument>('notifications'), notificationId, userId);
  }
}
