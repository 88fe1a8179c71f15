import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore, handleCommand, notificationsStream } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import { SendNotification } from '../contracts/commands';
import { inboxDecider } from '../domain/notifications';

/** Appends `NotificationSent`, once per cause (a replayed saga or a retried request notifies once). */
@CommandHandler(SendNotification)
export class SendNotificationHandler implements ICommandHandler<SendNotification, string | null> {
  constructor(
    private readonly store: EventStore,
    private readonly contexts: CommandContexts,
  ) {}

  async execute(command: SendNotification): Promise<string | null> {
    const context = this.contexts.forSystem(command.userId, command.causationId);
    const notificationId = context.ids.newId();
    const result = await handleCommand(
      this.store,
      notificationsStream(command.userId),
      inboxDecider,
      {
        type: 'Send',
        notificationId,
        kind: command.kind,
        title: command.title,
        message: command.message,
        trackId: command.trackId,
        causationId: command.causationId,
      },
      context,
      { retries: 5 },
    );
    return result.events.length > 0 ? notificationId : null;
  }
}
