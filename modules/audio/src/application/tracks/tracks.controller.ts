import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BlobStore, ProjectionRunner, ReadStore } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser, sendBlob } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IN_PROGRESS,
  MASTERING_INTENSITIES,
  MASTERING_TARGETS,
  TRACK_SERVICES,
  type TrackService,
  type TrackStatus,
} from '../../contracts/events';
import { LOCKED_FILES, NAMED_FILES, stemFile, stemPreviewFile, stemPreviewType } from '../../contracts/files';
import {
  type EngineSpeedDocument,
  GetEngineSpeed,
  GetLibrary,
  GetTrack,
  type LibraryDocument,
  ListTracks,
  type TrackDocument,
  type TrackPage,
} from '../../contracts/queries';
import { TrackLockedError, TrackNotFoundError } from '../../domain/errors';
import { DEFAULT_REAL_TIME_FACTOR } from '../jobs/stage-status';
import { TrackCommands } from '../track-commands';
import { UploadService } from '../upload/upload.service';
import { stripTags, type TrackView, trackView } from './track-view';

const MAX_LIMIT = 100;
const PAGE_CACHE_LIMIT = 2_000;

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
export class TracksController {
  constructor(
    private readonly uploads: UploadService,
    private readonly tracks: TrackCommands,
    private readonly queries: QueryBus,
    private readonly blobs: BlobStore,
    private readonly contexts: CommandContexts,
    private readonly reads: ReadStore,
    private readonly projections: ProjectionRunner,
  ) {}

  /** Serialised list pages by user and query, valid while the tracks read model stays at `version`. */
  private readonly pages = new Map<string, { version: number; body: string }>();
  /** The read model's checkpoint as read during the current turn of the event loop (see `version`). */
  private versionThisTurn: { read: Promise<number>; progress: number } | null = null;

  /**
   * The tracks read model's checkpoint, read once per turn of the event loop and shared by the requests handled in
   * that turn (under load, dozens: the read was a tenth of the list's CPU time), unless a projection of this process
   * has moved meanwhile. Read-your-writes holds: the answer to a write goes out once this process's projections show
   * it, which makes a read shared from before that count as stale, and a request sent after that answer arrives in a
   * later turn anyway (another process's projections are seen from the next turn on).
   */
  private version(): Promise<number> {
    const progress = this.projections.progressVersion;
    if (this.versionThisTurn?.progress !== progress) {
      const read = this.reads.getCheckpoint('tracks').then((checkpoint) => checkpoint?.position ?? 0);
      read.catch(() => undefined);
      const shared = { read, progress };
      this.versionThisTurn = shared;
      setImmediate(() => {
        if (this.versionThisTurn === shared) this.versionThisTurn = null;
      });
    }
    return this.versionThisTurn!.read;
  }

  private async owned(user: AuthenticatedUser, trackId: string): Promise<TrackDocument> {
    const doc = await this.queries.execute<GetTrack, TrackDocument | null>(new GetTrack(user.userId, trackId));
    if (!doc) throw new TrackNotFoundError(); // another user's track is as absent as a deleted one
    return doc;
  }

  @Post('upload')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ summary: 'Upload a file for a service (multipart: file, service, preset, mode); checked by content' })
  upload(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
  ): Promise<TrackView & { service: TrackService }> {
    return this.uploads.upload(user.userId, request.raw);
  }

  @Get('tracks')
  @ApiOperation({ summary: 'The user’s tracks, newest first (page, limit, service, audioId, isDemo, search)' })
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('page') pageText?: string,
    @Query('limit') limitText?: string,
    @Query('service') service?: string,
    @Query('audioId') audioId?: string,
    @Query('isDemo') isDemo?: string,
    @Query('search') search?: string,
  ): Promise<string> {
    // The same page asked again while the read model has not moved is answered from memory.
    const version = await this.version();
    const key = `${user.userId}|${pageText}|${limitText}|${service}|${audioId}|${isDemo}|${search}`;
    reply.type('application/json; charset=utf-8');
    const cached = this.pages.get(key);
    if (cached?.version === version) return cached.body;
    const page = Math.max(1, Number.parseInt(pageText ?? '1', 10) || 1);
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number.parseInt(limitText ?? '10', 10) || 10));
    const result = await this.queries.execute<ListTracks, TrackPage>(
      new ListTracks(
        {
          userId: user.userId,
          ...(TRACK_SERVICES.includes(service as TrackService) ? { service: service as TrackService } : {}),
          ...(audioId ? { trackId: audioId } : {}),
          // Demo tracks are hidden from the recent list unless asked for.
          isDemo: isDemo === 'true',
          ...(search?.trim() ? { search: search.trim() } : {}),
        },
        page,
        limit,
      ),
    );
    const body = JSON.stringify({ tracks: result.tracks.map(trackView), totalCount: result.totalCount, page, limit });
    if (this.pages.size >= PAGE_CACHE_LIMIT) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, { version, body });
    return body;
  }

  @Get('library')
  @ApiOperation({ summary: 'The media library: files the user uploaded, copies collapsed to the newest' })
  async library(
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<{ tracks: Array<{ id: string; filename: string; fileSize: number; createdAt: string }> }> {
    const docs = await this.queries.execute<GetLibrary, LibraryDocument[]>(new GetLibrary(user.userId, MAX_LIMIT));
    return {
      tracks: docs.map((doc) => ({
        id: doc._id,
        filename: stripTags(doc.filename),
        fileSize: doc.fileSize,
        createdAt: doc.createdAt,
      })),
    };
  }

  @Post('track/:id/reprocess')
  @ApiOperation({
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
    description:
      'UPLOAD.INVALID_SERVICE, INVALID_MODE, INVALID_PRESET, INVALID_INTENSITY, INVALID_TARGET, FILE_SIZE_MIN…',
  })
  @ApiResponse({ status: 404, description: 'TRACKS.NOT_FOUND: not an upload of this user' })
  @ApiResponse({ status: 409, description: 'TRACKS.ALREADY_PROCESSING' })
  @ApiResponse({ status: 413, description: 'UPLOAD.FILE_SIZE_MAX' })
  reprocess(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<TrackView & { service: TrackService }> {
    return this.uploads.reprocess(user.userId, id, body);
  }

  @Get('track/:id')
  @ApiOperation({ summary: 'One track' })
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<TrackView> {
    return trackView(await this.owned(user, id));
  }

  @Get('track/:id/status')
  @ApiOperation({ summary: 'Status, error and the estimated completion (from the engine’s measured speed)' })
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
    const doc = await this.owned(user, id);
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

  @Post('track/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop processing (the engine stops within a second)' })
  async cancel(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ success: true }> {
    await this.owned(user, id);
    await this.tracks.execute(id, { type: 'CancelProcessing' }, this.contexts.forUser(user.userId));
    return { success: true };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a track and its files (stops its processing first)' })
  async delete(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ success: true }> {
    await this.owned(user, id);
    await this.tracks.execute(id, { type: 'DeleteTrack' }, this.contexts.forUser(user.userId));
    return { success: true };
  }

  @Get('track/:id/stream/:type')
  @ApiOperation({
    summary: 'original, preview, master or a stem, with HTTP range requests; the full result only once unlocked',
  })
  async stream(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('type') type: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const doc = await this.owned(user, id);
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
