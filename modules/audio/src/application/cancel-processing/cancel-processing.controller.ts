import type { SuccessAnswer } from '@kora/contracts';
import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { TrackCommands } from '../track-commands';
import { OwnedTracks } from '../tracks/owned-tracks';

@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class CancelProcessingController {
  constructor(
    private readonly owned: OwnedTracks,
    private readonly tracks: TrackCommands,
    private readonly contexts: CommandContexts,
  ) {}

  @Post('track/:id/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'TracksController_cancel',
    summary: 'Stop processing (the engine stops within a second)',
  })
  async cancel(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SuccessAnswer> {
    await this.owned.owned(user, id);
    await this.tracks.execute(id, { type: 'CancelProcessing' }, this.contexts.forUser(user.userId));
    return { success: true };
  }
}
