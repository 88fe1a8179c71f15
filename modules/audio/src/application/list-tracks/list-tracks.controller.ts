import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { RecentPage } from '@kora/contracts';
import { ProjectionRunner, ReadStore } from '@kora/kernel';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { ListRecentMixes, type RecentMixes } from '@kora/mixing/contracts';
import type { FastifyReply } from 'fastify';
import { TRACK_SERVICES, type TrackService } from '../../contracts/events';
import { ListTracks, type TrackPage } from '../../contracts/queries';
import { trackView } from '../tracks/track-view';
import { mixCardView, recentPage, trackWindow } from './recent-page';

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

  /** Serialised list pages by user and query, valid while both read models listed stay at `version`. */
  private readonly pages = new Map<string, { version: string; body: string }>();
  /** The read models' checkpoints as read during the current turn of the event loop (see `version`). */
  private versionThisTurn: { read: Promise<string>; progress: number } | null = null;

  /**
   * The tracks and mix sessions read models' checkpoints, read once per turn of the event loop and shared by the
   * requests handled in that turn (under load, dozens: the read was a tenth of the list's CPU time), unless a
   * projection of this process has moved meanwhile. Read-your-writes holds: the answer to a write goes out once this
   * process's projections show it, which makes a read shared from before that count as stale, and a request sent
   * after that answer arrives in a later turn anyway (another process's projections are seen from the next turn on).
   */
  private version(): Promise<string> {
    const progress = this.projections.progressVersion;
    if (this.versionThisTurn?.progress !== progress) {
      const read = Promise.all([this.reads.getCheckpoint('tracks'), this.reads.getCheckpoint('mix-sessions')]).then(
        ([tracks, mixes]) => `${tracks?.position ?? 0}:${mixes?.position ?? 0}`,
      );
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
    summary: 'The user’s tracks and mixing sessions, newest first (page, limit, service, audioId, isDemo, search)',
  })
  // Listed from the last: decorators apply bottom-up.
  @ApiQuery({ name: 'search', required: false, type: String, description: 'in the file name' })
  @ApiQuery({ name: 'isDemo', required: false, type: String, description: '`true`: the demo tracks instead' })
  @ApiQuery({ name: 'audioId', required: false, type: String, description: 'only this track' })
  @ApiQuery({ name: 'service', required: false, type: String, description: 'only this service (AI_MIXING: the mixes)' })
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
    const text = search?.trim() || null;
    const demo = isDemo === 'true';
    // Mixing sessions are listed beside the tracks (AI_MIXING alone: only them); never with demos or one track.
    const withMixes = !demo && !audioId && (!service || service === 'AI_MIXING' || !isTrackService(service));
    const withTracks = service !== 'AI_MIXING';
    const from = (page - 1) * limit;
    const to = page * limit;
    const mixes = withMixes
      ? await this.queries.execute<ListRecentMixes, RecentMixes>(new ListRecentMixes(user.userId, text, to))
      : { sessions: [], totalCount: 0 };
    const window = trackWindow(from, to, mixes.sessions.length);
    const result: TrackPage = withTracks
      ? await this.queries.execute<ListTracks, TrackPage>(
          new ListTracks(
            {
              userId: user.userId,
              ...(isTrackService(service) ? { service } : {}),
              ...(audioId ? { trackId: audioId } : {}),
              // Demo tracks are hidden from the recent list unless asked for.
              isDemo: demo,
              ...(text ? { search: text } : {}),
            },
            page,
            window.limit,
            window.skip,
          ),
        )
      : { tracks: [], totalCount: 0 };
    const items = recentPage(result.tracks.map(trackView), window.skip, mixes.sessions.map(mixCardView), from, to);
    const answer: RecentPage = { tracks: items, totalCount: result.totalCount + mixes.totalCount, page, limit };
    const body = JSON.stringify(answer);
    if (this.pages.size >= PAGE_CACHE_LIMIT) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, { version, body });
    return body;
  }
}

const isTrackService = (service: string | undefined): service is TrackService =>
  TRACK_SERVICES.includes(service as TrackService);
