import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BlobStore } from '@kora/kernel';
import { type AuthenticatedUser, CurrentUser, sendBlob } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MixFileNotFoundError, MixLockedError } from '../../domain/errors';
import { SessionReads } from '../sessions/session-reads';

/** Listening and downloading: the preview is free, the full mix and its tracks once unlocked. */
@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class StreamMixController {
  constructor(
    private readonly reads: SessionReads,
    private readonly blobs: BlobStore,
  ) {}

  @Get('sessions/:id/stream/:type')
  @ApiOperation({
    operationId: 'SessionsController_stream',
    summary: 'preview (the mix’s 30 s), mix, original-<trackId>, track-<trackId>; ranges supported',
  })
  async stream(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('type') type: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const session = await this.reads.session(user, id);
    const original = /^original-(.+)$/.exec(type);
    const key = original
      ? session.tracks.find((track) => track.trackId === original[1])?.fileKey
      : Object.hasOwn(session.files, type)
        ? session.files[type]
        : undefined;
    if (!key) throw new MixFileNotFoundError();
    if ((type === 'mix' || type.startsWith('track-')) && !session.unlocked) {
      throw new MixLockedError();
    }
    await sendBlob(this.blobs, key, request, reply, {
      filename: `${session.name.replace(/<[^>]*>?/g, '') || 'mix'}_${type}`,
    });
  }
}
