import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EngineError, probe } from '@kora/audio-engine';
import { BlobStore, IDS, type IdGenerator, ValidationFailedError } from '@kora/kernel';
import {
  type AuthenticatedUser,
  CommandContexts,
  CurrentUser,
  receiveMultipart,
  sendBlob,
  UploadRejectedError,
} from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { MixTrackFile, MixTrackSettings } from '../contracts/events';
import {
  GetMixSession,
  GetMixTrack,
  ListMixSessions,
  type MixSessionDocument,
  type MixTrackDocument,
} from '../contracts/queries';
import { MAX_TRACKS, MixError, sessionNotFound } from '../domain/session';
import { MixCommands } from './mix-commands';
import { type MixerDecisions, mixerDecisions, type MixSessionView, resultTracks, sessionView } from './mix-views';
import { sessionSettings, trackSettings } from './settings';

const MAX_FILE = 100 * 1024 * 1024;
const MIN_FILE = 1024;
const MAX_NAME = 120;

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class SessionsController {
  constructor(
    private readonly mixes: MixCommands,
    private readonly queries: QueryBus,
    private readonly blobs: BlobStore,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  private async session(user: AuthenticatedUser, sessionId: string): Promise<MixSessionDocument> {
    const doc = await this.queries.execute<GetMixSession, MixSessionDocument | null>(
      new GetMixSession(user.userId, sessionId),
    );
    if (!doc) throw sessionNotFound();
    return doc;
  }

  private async sessionOfTrack(user: AuthenticatedUser, trackId: string): Promise<MixSessionDocument> {
    const track = await this.queries.execute<GetMixTrack, MixTrackDocument | null>(
      new GetMixTrack(user.userId, trackId),
    );
    if (!track) throw new MixError('MIXING.TRACK_NOT_FOUND', 'Track not found', 'not_found');
    return this.session(user, track.sessionId);
  }

  /** The engine's per-track decisions once the mix is made (none before, or when its report cannot be read). */
  private async decisions(doc: MixSessionDocument): Promise<Map<string, MixerDecisions>> {
    const key = doc.status === 'COMPLETED' ? doc.files.report : undefined;
    if (!key) return new Map();
    try {
      const stream = await this.blobs.read(key);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
      return mixerDecisions(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      return new Map();
    }
  }

  @Post('sessions/create')
  @ApiOperation({ summary: 'Create a mixing session (name required; style POP and 44100 Hz by default)' })
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { name?: unknown; mixingStyle?: unknown; sampleRate?: unknown },
  ): Promise<{ session: MixSessionView }> {
    const name = typeof body?.name === 'string' ? body.name.trim() : '';
    if (!name) throw new ValidationFailedError({ name: 'mixing.errors.mixNameRequired' });
    const settings = sessionSettings(body ?? {});
    const sessionId = this.ids.newId();
    await this.mixes.execute(
      sessionId,
      { type: 'CreateSession', sessionId, ownerId: user.userId, name: name.slice(0, MAX_NAME), ...settings },
      this.contexts.forUser(user.userId),
    );
    return { session: sessionView(await this.session(user, sessionId)) };
  }

  @Get('sessions')
  @ApiOperation({ summary: 'The user’s mixing sessions, newest first' })
  async list(@CurrentUser() user: AuthenticatedUser): Promise<{ sessions: MixSessionView[] }> {
    const docs = await this.queries.execute<ListMixSessions, MixSessionDocument[]>(new ListMixSessions(user.userId));
    return { sessions: docs.map(sessionView) };
  }

  @Get('sessions/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ session: MixSessionView }> {
    return { session: sessionView(await this.session(user, id)) };
  }

  @Post('sessions/:id/tracks')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ summary: 'Add one WAV file (field `file`)' })
  async addOne(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<{ session: MixSessionView }> {
    return this.addTracks(user, id, request.raw, 'file');
  }

  @Post('sessions/:id/tracks/batch')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ summary: 'Add WAV files (repeated `files`), with an optional JSON `settings` field' })
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
    const session = await this.session(user, sessionId);
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
          throw new ValidationFailedError({ settings: 'mixing.errors.invalidSettings' });
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
      return { session: sessionView(await this.session(user, sessionId)) };
    } catch (error) {
      for (const trackId of trackIds)
        await this.blobs.deletePrefix(`mixes/${sessionId}/${trackId}`).catch(() => undefined);
      throw error;
    }
  }

  @Put('tracks/batch-settings')
  @ApiOperation({ summary: 'Change several tracks’ settings (and the session’s style and sample rate) at once' })
  async batchSettings(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { updates?: unknown; musicalStyle?: unknown; mixingStyle?: unknown; sampleRate?: unknown },
  ): Promise<{ success: true; session: MixSessionView | null }> {
    const updates = Array.isArray(body?.updates) ? (body.updates as Array<Record<string, unknown>>) : [];
    let last: MixSessionDocument | null = null;
    for (const update of updates) {
      const trackId = typeof update.trackId === 'string' ? update.trackId : '';
      const session = await this.sessionOfTrack(user, trackId);
      const track = session.tracks.find((candidate) => candidate.trackId === trackId)!;
      await this.mixes.execute(
        session._id,
        { type: 'ChangeTrackSettings', trackId, settings: trackSettings(track.filename, update, track.settings) },
        this.contexts.forUser(user.userId),
      );
      last = await this.session(user, session._id);
    }
    if (last && (body.musicalStyle !== undefined || body.mixingStyle !== undefined || body.sampleRate !== undefined)) {
      const settings = sessionSettings(body, last);
      await this.mixes.execute(last._id, { type: 'ChangeSession', ...settings }, this.contexts.forUser(user.userId));
      last = await this.session(user, last._id);
    }
    return { success: true, session: last ? sessionView(last) : null };
  }

  @Put('tracks/:id')
  @ApiOperation({ summary: 'Change one track’s settings' })
  async trackSettings(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') trackId: string,
    @Body() body: unknown,
  ): Promise<{ session: MixSessionView }> {
    const session = await this.sessionOfTrack(user, trackId);
    const track = session.tracks.find((candidate) => candidate.trackId === trackId)!;
    await this.mixes.execute(
      session._id,
      { type: 'ChangeTrackSettings', trackId, settings: trackSettings(track.filename, body, track.settings) },
      this.contexts.forUser(user.userId),
    );
    return { session: sessionView(await this.session(user, session._id)) };
  }

  @Post('tracks/:id/delete')
  @HttpCode(200)
  async deleteTrack(@CurrentUser() user: AuthenticatedUser, @Param('id') trackId: string): Promise<{ success: true }> {
    const session = await this.sessionOfTrack(user, trackId);
    await this.mixes.execute(session._id, { type: 'RemoveTrack', trackId }, this.contexts.forUser(user.userId));
    return { success: true };
  }

  @Get('sessions/:id/status')
  async status(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<{ status: string; error: string | null }> {
    const session = await this.session(user, id);
    return { status: session.status, error: session.error?.message ?? null };
  }

  @Get('sessions/:id/preview')
  @ApiOperation({ summary: 'The mix once made (a 30-second preview until unlocked); a processing status before' })
  async preview(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    const session = await this.session(user, id);
    return {
      session: sessionView(session),
      status: session.status,
      tracks: resultTracks(session, await this.decisions(session)),
      mixingStyle: session.mixingStyle,
      sampleRate: session.sampleRate,
    };
  }

  @Post('sessions/:id/master')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Make the mix (2 to 5 tracks) if it is not made yet; answers its status and, once made, its rows',
  })
  async master(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.session(user, id);
    await this.mixes.execute(id, { type: 'RequestMix', jobId: this.ids.newId() }, this.contexts.forUser(user.userId));
    const session = await this.session(user, id);
    return {
      status: session.status,
      tracks: resultTracks(session, await this.decisions(session)),
      mixingStyle: session.mixingStyle,
      sampleRate: session.sampleRate,
    };
  }

  @Post('sessions/:id/cancel')
  @HttpCode(200)
  async cancel(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ success: true }> {
    await this.session(user, id);
    await this.mixes.execute(id, { type: 'CancelMix' }, this.contexts.forUser(user.userId));
    return { success: true };
  }

  @Get('sessions/:id/stream/:type')
  @ApiOperation({ summary: 'preview (the mix’s 30 s), mix, original-<trackId>, track-<trackId>; ranges supported' })
  async stream(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('type') type: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const session = await this.session(user, id);
    const original = /^original-(.+)$/.exec(type);
    const key = original
      ? session.tracks.find((track) => track.trackId === original[1])?.fileKey
      : Object.hasOwn(session.files, type)
        ? session.files[type]
        : undefined;
    if (!key) throw new MixError('MIXING.FILE_NOT_FOUND', 'File not found', 'not_found');
    if ((type === 'mix' || type.startsWith('track-')) && !session.unlocked) {
      throw new MixError('MIXING.LOCKED', 'Unlock this mix to get the full result.', 'forbidden');
    }
    await sendBlob(this.blobs, key, request, reply, {
      filename: `${session.name.replace(/<[^>]*>?/g, '') || 'mix'}_${type}`,
    });
  }
}
