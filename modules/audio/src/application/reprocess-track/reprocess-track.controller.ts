import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { MASTERING_INTENSITIES, MASTERING_TARGETS, TRACK_SERVICES, type TrackService } from '../../contracts/events';
import type { Track, TrackOptions, Unchecked } from '@kora/contracts';
import { UploadService } from '../upload/upload.service';

/**
 * A new job from an earlier upload. Its handler is `UploadService.reprocess` (upload/): it records the new track
 * exactly as an upload, under the same one-job-per-service lock, so the two share one service.
 */
@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class ReprocessTrackController {
  constructor(private readonly uploads: UploadService) {}

  @Post('track/:id/reprocess')
  @ApiOperation({
    operationId: 'TracksController_reprocess',
    summary: 'A new job for a service from an earlier upload (the media library): a new track, processed as an upload',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['service'],
      properties: {
        service: { type: 'string', enum: [...TRACK_SERVICES] },
        mode: { type: 'string', enum: ['vocals', 'drums', 'guitars', 'full'], description: 'stem separation' },
        preset: { type: 'string', enum: ['voice', 'podcast', 'music', 'audio', 'video'], description: 'enhancement' },
        intensity: { type: 'string', enum: [...MASTERING_INTENSITIES], description: 'mastering (default medium)' },
        target: { type: 'string', enum: [...MASTERING_TARGETS], description: 'mastering (default streaming)' },
      },
    },
  })
  @ApiResponse({ status: 201, description: 'The new track plus `service`' })
  @ApiResponse({
    status: 400,
    description: 'upload.invalidService, invalidMode, invalidPreset, invalidIntensity, invalidTarget, fileSizeMin…',
  })
  @ApiResponse({ status: 404, description: 'TRACKS.NOT_FOUND: not an upload of this user' })
  @ApiResponse({ status: 409, description: 'TRACKS.ALREADY_PROCESSING' })
  @ApiResponse({ status: 413, description: 'UPLOAD.FILE_SIZE_MAX' })
  reprocess(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    // The contract's TrackOptions as they arrive: the upload service checks each.
    @Body() body: Unchecked<TrackOptions>,
  ): Promise<Track & { service: TrackService }> {
    return this.uploads.reprocess(user.userId, id, body);
  }
}
