import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ProjectionRunner, ReadStore } from '@kora/kernel';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import type { FastifyReply } from 'fastify';
import { TRACK_SERVICES, type TrackService } from '../../contracts/events';
import { ListTracks, type TrackPage } from '../../contracts/queries';
import { trackView } from '../tracks/track-view';

const MAX_LIMIT = 100;

type ListQuery = Partial<Record<'page' | 'limit' | 'service' | 'audioId' | 'isDemo' | 'search', string>>;
const PAGE_CACHE_LIMIT = 2_000;

@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class ListTracksController {
  constructor(
    private readonly queries: QueryBus,
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

  @Get('tracks')
  @ApiOperation({
    operationId: 'TracksController_list',
    summary: 'The user’s tracks, newest first (page, limit, service, audioId, isDemo, search)',
  })
  // Listed from the last: decorators apply bottom-up.
  @ApiQuery({ name: 'search', required: false, type: String, description: 'in the file name' })
  @ApiQuery({ name: 'isDemo', required: false, type: String, description: '`true`: the demo tracks instead' })
  @ApiQuery({ name: 'audioId', required: false, type: String, description: 'only this track' })
  @ApiQuery({ name: 'service', required: false, type: String, description: 'only this service' })
  @ApiQuery({ name: 'limit', required: false, type: String, description: `1 to ${MAX_LIMIT} (default 10)` })
  @ApiQuery({ name: 'page', required: false, type: String, description: 'from 1 (default 1)' })
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Res({ passthrough: true }) reply: FastifyReply,
    // One parameter for the whole query rather than one per field: Nest resolves each parameter on every request,
    // and this is the most requested route.
    @Query() query: ListQuery,
  ): Promise<string> {
    const { page: pageText, limit: limitText, service, audioId, isDemo, search } = query;
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
}
