import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore, toAppend } from '@kora/kernel';
import { notificationsStream } from '../../contracts/streams';
import { CommandContexts } from '@kora/kernel/nest';
import { createHash } from 'node:crypto';
import { SendNotification } from '../../contracts/commands';
import type { NotificationSent } from '../../contracts/events';

/** A UUID-shaped id derived from the recipient and the cause: the same cause always gives the same notification. */
export function notificationIdFor(userId: string, causationId: string): string {
  const hex = createHash('sha256').update(`${userId}\u0000${causationId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Appends `NotificationSent`, once per cause: the event's id is derived from the cause, and the event store
 * acknowledges a repeated id without writing it again. No need to read the whole inbox to decide.
 */
@CommandHandler(SendNotification)
export class SendNotificationHandler implements ICommandHandler<SendNotification, string | null> {
  constructor(
    private readonly store: EventStore,
    private readonly contexts: CommandContexts,
  ) {}

  async execute(command: SendNotification): Promise<string | null> {
    const notificationId = notificationIdFor(command.userId, command.causationId);
    const stream = notificationsStream(command.userId);
    const context = {
      ...this.contexts.forSystem(command.userId, command.causationId),
      ids: { newId: () => notificationId },
    };
    const event: NotificationSent = {
      type: 'NotificationSent',
      data: {
        notificationId,
        type: 'PUSH',
        kind: command.kind,
        title: command.title,
        message: command.message,
        trackId: command.trackId,
        causationId: command.causationId,
      },
    };
    const before = await this.store.headPosition();
    const result = await this.store.append(stream, toAppend([event], context), 'any');
    return result.position > before ? notificationId : null;
  }
}
