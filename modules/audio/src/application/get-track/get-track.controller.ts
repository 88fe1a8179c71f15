import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { OwnedTracks } from '../tracks/owned-tracks';
import type { Track } from '@kora/contracts';
import { trackView } from '../tracks/track-view';

@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class GetTrackController {
  constructor(private readonly tracks: OwnedTracks) {}

  @Get('track/:id')
  @ApiOperation({ operationId: 'TracksController_get', summary: 'One track' })
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Track> {
    return trackView(await this.tracks.owned(user, id));
  }
}
