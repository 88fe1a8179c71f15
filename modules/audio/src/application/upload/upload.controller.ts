import { Controller, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import type { FastifyRequest } from 'fastify';
import type { TrackService } from '../../contracts/events';
import type { Track } from '@kora/contracts';
import { UploadService } from './upload.service';

@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class UploadController {
  constructor(private readonly uploads: UploadService) {}

  @Post('upload')
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiOperation({
    operationId: 'TracksController_upload',
    summary:
      'Upload a file for a service (multipart: file, service, preset, mode; or JSON naming resumable uploads: upload, ' +
      'reference, service, preset, mode, intensity, target); checked by content',
  })
  upload(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
  ): Promise<Track & { service: TrackService }> {
    // JSON: the file was sent by the resumable protocol (`/api/uploads`), and the body names it.
    if (/^application\/json/i.test(request.headers['content-type'] ?? '')) {
      return this.uploads.uploadSent(user.userId, request.body);
    }
    return this.uploads.upload(user.userId, request.raw);
  }
}
