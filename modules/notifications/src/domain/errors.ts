import type { NotificationsErrorCode } from '@kora/contracts';
import { CodedError } from '@kora/kernel';

/** A refusal of the notifications module: one class per code below. */
export abstract class NotificationsError extends CodedError<NotificationsErrorCode> {}

export class NotificationNotFoundError extends NotificationsError {
  readonly code = 'NOTIFICATIONS.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Notification not found');
  }
}
