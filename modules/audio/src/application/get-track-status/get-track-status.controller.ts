import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { IN_PROGRESS, type TrackStatus } from '../../contracts/events';
import { type EngineSpeedDocument, GetEngineSpeed } from '../../contracts/queries';
import { DEFAULT_REAL_TIME_FACTOR } from '../jobs/stage-status';
import { OwnedTracks } from '../tracks/owned-tracks';

@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class GetTrackStatusController {
  constructor(
    private readonly tracks: OwnedTracks,
    private readonly queries: QueryBus,
  ) {}

  @Get('track/:id/status')
  @ApiOperation({
    operationId: 'TracksController_status',
    summary: 'Status, error and the estimated completion (from the engine’s measured speed)',
  })
  async status(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<{
    status: TrackStatus;
    error: string | null;
    errorCode: string | null;
    progress: number;
    estimatedCompletion: string | null;
  }> {
    const doc = await this.tracks.owned(user, id);
    let estimatedCompletion: string | null = null;
    if (IN_PROGRESS.includes(doc.status)) {
      const speed = await this.queries.execute<GetEngineSpeed, EngineSpeedDocument | null>(
        new GetEngineSpeed(doc.service),
      );
      const factor = speed?.realTimeFactor ?? DEFAULT_REAL_TIME_FACTOR[doc.service];
      const start = Date.parse(doc.processingStartedAt ?? doc.updatedAt);
      estimatedCompletion = new Date(Math.max(start + doc.durationSec * factor * 1000, Date.now())).toISOString();
    }
    return {
      status: doc.status,
      error: doc.error?.message ?? null,
      errorCode: doc.error?.code ?? null,
      progress: doc.progress,
      estimatedCompletion,
    };
  }
}
