import { Module } from '@nestjs/common';
import { NotificationsController } from './application/notifications.controller';
import { NotificationsRealtime } from './application/notifications-realtime';
import { ResultsNotifier } from './application/results-notifier';
import { SendNotificationHandler } from './application/send-notification.handler';

/** Push notifications: the bell list, read state, acknowledgements, and `SendNotification` for other modules. */
@Module({
  controllers: [NotificationsController],
  providers: [SendNotificationHandler, NotificationsRealtime, ResultsNotifier],
})
export class NotificationsModule {}
