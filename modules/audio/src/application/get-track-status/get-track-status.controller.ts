import type { TrackStatusAnswer } from '@kora/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { IN_PROGRESS_STATUSES } from '../../contracts/events';
import { type EngineSpeedDocument, GetEngineSpeed } from '../../contracts/queries';
import { estimateJob } from '../jobs/progress-estimate';
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
    summary:
      'Status, error, and while the job runs its share done (`progress`, 0 to 1, by time) and the time left ' +
      '(`remainingMs`, and `estimatedCompletion` on the server’s clock), from the engine’s measured speed and progress',
  })
  async status(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<TrackStatusAnswer> {
    const doc = await this.tracks.owned(user, id);
    const now = Date.now();
    let progress = doc.progress;
    let remainingMs: number | null = null;
    if (IN_PROGRESS_STATUSES.includes(doc.status)) {
      const speed = await this.queries.execute<GetEngineSpeed, EngineSpeedDocument | null>(
        new GetEngineSpeed(doc.service),
      );
      const factor = speed?.realTimeFactor ?? DEFAULT_REAL_TIME_FACTOR[doc.service];
      // Queued (not started yet): nothing done, the whole model left.
      const estimate = estimateJob({
        startedAt: doc.processingStartedAt ? Date.parse(doc.processingStartedAt) : now,
        now,
        expectedMs: doc.durationSec * factor * 1000,
        engineProgress: doc.processingStartedAt ? doc.progress : 0,
      });
      progress = estimate.progress;
      remainingMs = estimate.remainingMs;
    }
    return {
      status: doc.status,
      error: doc.error?.message ?? null,
      errorCode: doc.error?.code ?? null,
      progress,
      remainingMs,
      estimatedCompletion: remainingMs === null ? null : new Date(now + remainingMs).toISOString(),
    };
  }
}
