import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EnhanceReport, MasterReport } from '@kora/audio-engine';
import type { EngineReport } from '@kora/contracts';
import { BlobStore } from '@kora/kernel';
import { type AuthenticatedUser, CurrentUser, sendBlob } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOCKED_FILES, NAMED_FILES, stemFile, stemPreviewFile, stemPreviewType } from '../../contracts/files';
import type { TrackDocument } from '../../contracts/queries';
import { TrackLockedError, TrackNotFoundError } from '../../domain/errors';
import { OwnedTracks } from '../tracks/owned-tracks';
import { stripTags } from '../tracks/track-view';

/**
 * The `report` stream type sends the file the engine wrote, as it is: the engine's mastering and enhancement reports
 * must be the contract's `EngineReport` (what the client reads of them), or this fails the type check.
 */
type Sent<Report extends EngineReport> = Report;
export type SentReport = Sent<MasterReport> | Sent<EnhanceReport>;

/**
 * The file behind a stream type, and whether it needs the track unlocked: a stem (locked, the full result), a
 * stem's preview (free), or a named file (the master locked; the original, the previews and the report free).
 */
function streamFile(doc: TrackDocument, type: string): { name: string; locked: boolean } | null {
  if (doc.stems.includes(type)) return { name: stemFile(type), locked: true };
  const previewOf = doc.stems.find((stem) => stemPreviewType(stem) === type);
  if (previewOf) return { name: stemPreviewFile(previewOf), locked: false };
  if (NAMED_FILES.includes(type)) return { name: type, locked: LOCKED_FILES.includes(type) };
  return null;
}

@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class StreamTrackController {
  constructor(
    private readonly tracks: OwnedTracks,
    private readonly blobs: BlobStore,
  ) {}

  @Get('track/:id/stream/:type')
  @ApiOperation({
    operationId: 'TracksController_stream',
    summary: 'original, preview, master or a stem, with HTTP range requests; the full result only once unlocked',
  })
  async stream(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('type') type: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const doc = await this.tracks.owned(user, id);
    const file = streamFile(doc, type);
    const key = file && Object.hasOwn(doc.files, file.name) ? doc.files[file.name] : undefined;
    if (!file || !key) throw new TrackNotFoundError();
    if (file.locked && !doc.unlocked) throw new TrackLockedError();
    await sendBlob(this.blobs, key, request, reply, {
      filename: `${stripTags(doc.filename).replace(/\.[^.]*$/, '') || 'kora'}_${type}`,
      contentType: type === 'original' ? doc.contentType : undefined,
    });
  }
}
