import { Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EventStore, handleCommand, ProjectionRunner } from '@kora/kernel';
import { notificationsStream } from '../../contracts/streams';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { GetNotification, type NotificationDocument } from '../../contracts/queries';
import { inboxDecider, NotificationNotFoundError } from '../../domain/notifications';

const READ_MODELS = ['notifications'];

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/notifications')
export class MarkReadController {
  constructor(
    private readonly queries: QueryBus,
    private readonly store: EventStore,
    private readonly contexts: CommandContexts,
    private readonly projections: ProjectionRunner,
  ) {}

  @Patch(':id/read')
  @HttpCode(200)
  @ApiOperation({ operationId: 'NotificationsController_markRead', summary: 'Mark a notification read (idempotent)' })
  async markRead(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ success: true }> {
    const doc = await this.queries.execute<GetNotification, NotificationDocument | null>(
      new GetNotification(user.userId, id),
    );
    if (!doc) throw new NotificationNotFoundError();
    const result = await handleCommand(
      this.store,
      notificationsStream(user.userId),
      inboxDecider,
      { type: 'MarkRead', notificationId: id },
      this.contexts.forUser(user.userId),
      { retries: 3 },
    );
    if (result.append) await this.projections.waitFor(result.append.position, 5_000, READ_MODELS);
    return { success: true };
  }
}
