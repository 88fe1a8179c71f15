import type { MixSessionAnswer } from '@kora/contracts';
import { Controller, Inject, type OnModuleInit, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EngineError, probe, sniffHead } from '@kora/audio-engine';
import {
  BlobStore,
  DamagedFileError,
  FileTooSmallError,
  IDS,
  type IdGenerator,
  ValidationFailedError,
} from '@kora/kernel';
import {
  type AuthenticatedUser,
  CommandContexts,
  CurrentUser,
  receiveMultipart,
  ResumableUploads,
} from '@kora/kernel/nest';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { MixTrackFile, MixTrackSettings } from '../../contracts/events';
import { NoFilesError, NotWavError, TooManyTracksError } from '../../domain/errors';
import { MAX_TRACKS } from '../../domain/session';
import { MixCommands } from '../mix-commands';
import { sessionView } from '../sessions/mix-views';
import { SessionReads } from '../sessions/session-reads';
import { MIXING_FIELD_CODES, trackSettings } from '../sessions/settings';

const MAX_FILE = 100 * 1024 * 1024;
const MIN_FILE = 1024;
/** The resumable uploads' purpose of a mixing track (`purpose` in their metadata). */
export const MIX_TRACK_PURPOSE = 'mix-track';

/** The files of an add-tracks request, however they came: their blob's track id, name and size. */
interface Received {
  fields: Record<string, string>;
  files: Array<{ stored: string; filename: string; size: number }>;
}

/** A session's WAV files, one per request or several with their settings; both routes share one handler. */
@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class AddTracksController implements OnModuleInit {
  constructor(
    private readonly mixes: MixCommands,
    private readonly reads: SessionReads,
    private readonly blobs: BlobStore,
    private readonly contexts: CommandContexts,
    private readonly resumable: ResumableUploads,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  /** A mixing track sent by the resumable protocol: a WAV within the sizes below, refused by its first bytes if not. */
  onModuleInit(): void {
    this.resumable.registerPurpose(MIX_TRACK_PURPOSE, {
      largest: MAX_FILE,
      limits: () => ({ min: MIN_FILE, max: MAX_FILE }),
      checkHead: async (head, length) => {
        if ((await sniffHead(head, length)).container !== 'wav') throw new NotWavError();
      },
    });
  }

  @Post('sessions/:id/tracks')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ operationId: 'SessionsController_addOne', summary: 'Add one WAV file (field `file`)' })
  async addOne(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<MixSessionAnswer> {
    return this.addTracks(user, id, (keyOf, trackIds) => this.receiveForm(request.raw, 'file', keyOf, trackIds));
  }

  @Post('sessions/:id/tracks/batch')
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiOperation({
    operationId: 'SessionsController_addBatch',
    summary:
      'Add WAV files (repeated `files`), with an optional JSON `settings` field; or, as JSON, `uploads` (the ids of ' +
      'files sent by the resumable protocol, purpose mix-track) and `settings`',
  })
  async addBatch(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<MixSessionAnswer> {
    if (/^application\/json/i.test(request.headers['content-type'] ?? '')) {
      return this.addTracks(user, id, (keyOf, trackIds) => this.claimSent(user, request.body, keyOf, trackIds));
    }
    return this.addTracks(user, id, (keyOf, trackIds) => this.receiveForm(request.raw, 'files', keyOf, trackIds));
  }

  /** Files sent by the resumable protocol, each used once and moved into the blob store. */
  private async claimSent(
    user: AuthenticatedUser,
    body: unknown,
    keyOf: (trackId: string) => string,
    trackIds: string[],
  ): Promise<Received> {
    const given = (typeof body === 'object' && body !== null ? body : {}) as { uploads?: unknown; settings?: unknown };
    const uploads = Array.isArray(given.uploads) ? given.uploads : [];
    if (uploads.length === 0) throw new NoFilesError();
    if (uploads.length > MAX_TRACKS || uploads.some((upload) => typeof upload !== 'string')) {
      throw new TooManyTracksError(MAX_TRACKS);
    }
    const files: Received['files'] = [];
    for (const upload of uploads as string[]) {
      const claimed = await this.resumable.claim(user.userId, upload, [MIX_TRACK_PURPOSE]);
      try {
        const trackId = this.ids.newId();
        trackIds.push(trackId);
        await this.blobs.putFile(keyOf(trackId), claimed.path, 'audio/wav');
        files.push({ stored: trackId, filename: claimed.filename, size: claimed.length });
      } finally {
        await claimed.discard();
      }
    }
    const settings = given.settings === undefined ? undefined : JSON.stringify(given.settings);
    return { fields: settings ? { settings } : {}, files };
  }

  /** A multipart form's files, streamed into the blob store. */
  private async receiveForm(
    request: IncomingMessage,
    field: string,
    keyOf: (trackId: string) => string,
    trackIds: string[],
  ): Promise<Received> {
    return receiveMultipart(request, {
      fileField: field,
      maxFiles: MAX_TRACKS,
      maxBytes: () => MAX_FILE,
      store: (stream) => {
        const trackId = this.ids.newId();
        trackIds.push(trackId);
        return this.blobs.put(keyOf(trackId), stream, 'audio/wav').then(() => trackId);
      },
    });
  }

  /** Takes each file into the blob store (`receive`), checks it is WAV by content, then records them all or none. */
  private async addTracks(
    user: AuthenticatedUser,
    sessionId: string,
    receive: (keyOf: (trackId: string) => string, trackIds: string[]) => Promise<Received>,
  ): Promise<MixSessionAnswer> {
    const session = await this.reads.session(user, sessionId);
    const room = MAX_TRACKS - session.tracks.length;
    const trackIds: string[] = [];
    const keyOf = (trackId: string): string => `mixes/${sessionId}/${trackId}/original`;
    try {
      const { fields, files } = await receive(keyOf, trackIds);
      if (files.length === 0) throw new NoFilesError();
      if (files.length > room) throw new TooManyTracksError(MAX_TRACKS);
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
          throw new FileTooSmallError('The file is too small.', {
            limitMb: MIN_FILE / 1048576,
          });
        const found = await this.blobs
          .withLocalFile(keyOf(file.stored), (path) => probe(path))
          .catch((error: unknown) => {
            // A WAV cut short is damaged, not the wrong kind: its owner needs to copy it again, not convert it.
            if (error instanceof EngineError && error.code === 'ENGINE.TRUNCATED_INPUT') throw new DamagedFileError();
            if (error instanceof EngineError) throw new NotWavError();
            throw error;
          });
        if (found.container !== 'wav' || !found.hasAudio || found.hasVideo) throw new NotWavError();
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
