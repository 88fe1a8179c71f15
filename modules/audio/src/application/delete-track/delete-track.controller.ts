import type { SuccessAnswer } from '@kora/contracts';
import { Controller, Delete, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { TrackCommands } from '../track-commands';
import { OwnedTracks } from '../tracks/owned-tracks';

/** Deleting a track; its files go with `FilesCleanup` (cleanup/) once `TrackDeleted` is in the log. */
@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class DeleteTrackController {
  constructor(
    private readonly owned: OwnedTracks,
    private readonly tracks: TrackCommands,
    private readonly contexts: CommandContexts,
  ) {}

  @Delete(':id')
  @ApiOperation({
    operationId: 'TracksController_delete',
    summary: 'Delete a track and its files (stops its processing first)',
  })
  async delete(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SuccessAnswer> {
    await this.owned.owned(user, id);
    await this.tracks.execute(id, { type: 'DeleteTrack' }, this.contexts.forUser(user.userId));
    return { success: true };
  }
}
