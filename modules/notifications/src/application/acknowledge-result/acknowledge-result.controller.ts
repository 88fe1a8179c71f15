import type { AcknowledgeAnswer, AcknowledgeRequest, Unchecked } from '@kora/contracts';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetTrack, type TrackDocument, TrackNotFoundError } from '@kora/audio/contracts';
import { ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import type { NotificationKind } from '../../contracts/events';
import { NotificationCommands } from '../notification-commands';
import type { FieldCode } from '@kora/contracts';

/** The codes `acknowledge` puts in `fields` (`MODULE.PROBLEM`, docs/api.md). */
export const ACKNOWLEDGE_FIELD_CODES = {
  trackIdRequired: 'NOTIFICATIONS.TRACK_ID_REQUIRED',
  invalidType: 'NOTIFICATIONS.INVALID_TYPE',
} as const satisfies Record<string, FieldCode>;

const ACKNOWLEDGEABLE: readonly NotificationKind[] = ['PREVIEW_READY', 'MASTER_READY', 'STEMS_READY'];

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/notifications')
export class AcknowledgeResultController {
  constructor(
    private readonly notifications: NotificationCommands,
    private readonly contexts: CommandContexts,
    private readonly queries: QueryBus,
  ) {}

  @Post('acknowledge')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'NotificationsController_acknowledge',
    summary: 'Record that the client showed a result of one of the user’s tracks (once per track and type)',
  })
  async acknowledge(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: Unchecked<AcknowledgeRequest>,
  ): Promise<AcknowledgeAnswer> {
    const fields: Record<string, FieldCode> = {};
    if (typeof body?.trackId !== 'string' || body.trackId.length === 0 || body.trackId.length > 100) {
      fields.trackId = ACKNOWLEDGE_FIELD_CODES.trackIdRequired;
    }
    if (!ACKNOWLEDGEABLE.includes(body?.notificationType as NotificationKind)) {
      fields.notificationType = ACKNOWLEDGE_FIELD_CODES.invalidType;
    }
    if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
    const track = await this.queries.execute<GetTrack, TrackDocument | null>(
      new GetTrack(user.userId, body.trackId as string),
    );
    // Only the user's own tracks have results to acknowledge: another's, or none, is not found (as on every route).
    if (!track) throw new TrackNotFoundError();
    // The bell list does not show acknowledgements (its projection skips them): nothing to wait for.
    const result = await this.notifications.execute(
      user.userId,
      {
        type: 'Acknowledge',
        trackId: body.trackId as string,
        notificationType: body.notificationType as NotificationKind,
      },
      this.contexts.forUser(user.userId),
      { settle: false },
    );
    return { success: true, acknowledged: result.events.length > 0 };
  }
}
