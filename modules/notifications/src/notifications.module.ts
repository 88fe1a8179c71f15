import { Module } from '@nestjs/common';
import { AcknowledgeResultController } from './application/acknowledge-result/acknowledge-result.controller';
import { ListNotificationsController } from './application/list-notifications/list-notifications.controller';
import { MarkReadController } from './application/mark-read/mark-read.controller';
import { NotificationCommands } from './application/notification-commands';
import { ResultsNotifier } from './application/notify-results/results-notifier';
import { NotificationsRealtime } from './application/send-notification/notifications-realtime';
import { SendNotificationHandler } from './application/send-notification/send-notification.handler';

/** Push notifications: the bell list, read state, acknowledgements, and `SendNotification` for other modules. */
@Module({
  // One controller per use case, in the order the routes were first published (the OpenAPI document keeps it).
  controllers: [ListNotificationsController, MarkReadController, AcknowledgeResultController],
  providers: [NotificationCommands, SendNotificationHandler, NotificationsRealtime, ResultsNotifier],
})
export class NotificationsModule {}
