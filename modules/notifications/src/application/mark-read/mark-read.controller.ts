import type { SuccessAnswer } from '@kora/contracts';
import { Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { GetNotification, type NotificationDocument } from '../../contracts/queries';
import { NotificationNotFoundError } from '../../domain/errors';
import { NotificationCommands } from '../notification-commands';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/notifications')
export class MarkReadController {
  constructor(
    private readonly queries: QueryBus,
    private readonly notifications: NotificationCommands,
    private readonly contexts: CommandContexts,
  ) {}

  @Patch(':id/read')
  @HttpCode(200)
  @ApiOperation({ operationId: 'NotificationsController_markRead', summary: 'Mark a notification read (idempotent)' })
  async markRead(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SuccessAnswer> {
    const doc = await this.queries.execute<GetNotification, NotificationDocument | null>(
      new GetNotification(user.userId, id),
    );
    if (!doc) throw new NotificationNotFoundError();
    // Returns once the bell list shows it read.
    await this.notifications.execute(
      user.userId,
      { type: 'MarkRead', notificationId: id },
      this.contexts.forUser(user.userId),
    );
    return { success: true };
  }
}
