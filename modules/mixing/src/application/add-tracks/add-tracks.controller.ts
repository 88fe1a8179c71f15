import { Controller, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EngineError, probe } from '@kora/audio-engine';
import { BlobStore, IDS, type IdGenerator, ValidationFailedError } from '@kora/kernel';
import {
  type AuthenticatedUser,
  CommandContexts,
  CurrentUser,
  receiveMultipart,
  UploadRejectedError,
} from '@kora/kernel/nest';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { MixTrackFile, MixTrackSettings } from '../../contracts/events';
import { MAX_TRACKS, MixError } from '../../domain/session';
import { MixCommands } from '../mix-commands';
import { type MixSessionView, sessionView } from '../sessions/mix-views';
import { SessionReads } from '../sessions/session-reads';
import { MIXING_FIELD_CODES, trackSettings } from '../sessions/settings';

const MAX_FILE = 100 * 1024 * 1024;
const MIN_FILE = 1024;

/** A session's WAV files, one per request or several with their settings; both routes share one handler. */
@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class AddTracksController {
  constructor(
    private readonly mixes: MixCommands,
    private readonly reads: SessionReads,
    private readonly blobs: BlobStore,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  @Post('sessions/:id/tracks')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ operationId: 'SessionsController_addOne', summary: 'Add one WAV file (field `file`)' })
  async addOne(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<{ session: MixSessionView }> {
    return this.addTracks(user, id, request.raw, 'file');
  }

  @Post('sessions/:id/tracks/batch')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({
    operationId: 'SessionsController_addBatch',
    summary: 'Add WAV files (repeated `files`), with an optional JSON `settings` field',
  })
  async addBatch(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<{ session: MixSessionView }> {
    return this.addTracks(user, id, request.raw, 'files');
  }

  /** Streams each file into the blob store, checks it is WAV by content, then records them all or none. */
  private async addTracks(
    user: AuthenticatedUser,
    sessionId: string,
    request: IncomingMessage,
    field: string,
  ): Promise<{ session: MixSessionView }> {
    const session = await this.reads.session(user, sessionId);
    const room = MAX_TRACKS - session.tracks.length;
    const trackIds: string[] = [];
    const keyOf = (trackId: string): string => `mixes/${sessionId}/${trackId}/original`;
    try {
      const { fields, files } = await receiveMultipart(request, {
        fileField: field,
        maxFiles: MAX_TRACKS,
        maxBytes: () => MAX_FILE,
        store: (stream) => {
          const trackId = this.ids.newId();
          trackIds.push(trackId);
          return this.blobs.put(keyOf(trackId), stream, 'audio/wav').then(() => trackId);
        },
      });
      if (files.length === 0) throw new MixError('MIXING.NO_FILES', 'No files provided for upload');
      if (files.length > room)
        throw new MixError('MIXING.MAXIMUM_FILES', `A mix takes at most ${MAX_TRACKS} files.`, 'invalid', {
          max: MAX_TRACKS,
        });
      let requested: Array<Record<string, unknown>> = [];
      if (fields.settings) {
        try {
          const parsed = JSON.parse(fields.settings) as unknown;
          requested = (
            Array.isArray(parsed) ? parsed : (((parsed as { tracks?: unknown }).tracks as unknown[]) ?? [])
          ) as Array<Record<string, unknown>>;
        } catch {
          throw new ValidationFailedError({ settings: MIXING_FIELD_CODES.invalidSettings });
        }
      }
      const tracks: Array<MixTrackFile & { settings: MixTrackSettings }> = [];
      for (const file of files) {
        if (file.size < MIN_FILE)
          throw new UploadRejectedError('UPLOAD.FILE_SIZE_MIN', 'The file is too small.', {
            limitMb: MIN_FILE / 1048576,
          });
        const found = await this.blobs
          .withLocalFile(keyOf(file.stored), (path) => probe(path))
          .catch((error: unknown) => {
            // A WAV cut short is damaged, not the wrong kind: its owner needs to copy it again, not convert it.
            if (error instanceof EngineError && error.code === 'ENGINE.TRUNCATED_INPUT')
              throw new UploadRejectedError('UPLOAD.DAMAGED_FILE', 'This file is damaged or incomplete.');
            if (error instanceof EngineError)
              throw new UploadRejectedError('UPLOAD.FILE_FORMAT', 'Mixing takes WAV files only.');
            throw error;
          });
        if (found.container !== 'wav' || !found.hasAudio || found.hasVideo) {
          throw new UploadRejectedError('UPLOAD.FILE_FORMAT', 'Mixing takes WAV files only.');
        }
        const entry = requested.find((candidate) => candidate.fileName === file.filename) ?? {};
        tracks.push({
          trackId: file.stored,
          filename: file.filename.slice(0, 255),
          fileKey: keyOf(file.stored),
          fileSize: file.size,
          durationSec: Math.round(found.durationSec * 1000) / 1000,
          sampleRate: found.sampleRate ?? 0,
          channels: found.channels ?? 0,
          settings: trackSettings(file.filename, entry),
        });
      }
      await this.mixes.execute(sessionId, { type: 'AddTracks', tracks }, this.contexts.forUser(user.userId));
      return { session: sessionView(await this.reads.session(user, sessionId)) };
    } catch (error) {
      for (const trackId of trackIds)
        await this.blobs.deletePrefix(`mixes/${sessionId}/${trackId}`).catch(() => undefined);
      throw error;
    }
  }
}
