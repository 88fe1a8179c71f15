export { NotificationsModule } from './notifications.module';
export { SendNotification } from './contracts/commands';
export type { LocalisedText, NotificationKind } from './contracts/events';
