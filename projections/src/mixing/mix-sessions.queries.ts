import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  GetMixSession,
  GetMixTrack,
  ListMixSessions,
  ListRecentMixes,
  type MixSessionDocument,
  type MixTrackDocument,
  type RecentMixes,
} from '@kora/mixing/contracts';
import { type Filter, findOwned, ReadStore } from '@kora/kernel';

@QueryHandler(GetMixSession)
export class GetMixSessionHandler implements IQueryHandler<GetMixSession, MixSessionDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, sessionId }: GetMixSession): Promise<MixSessionDocument | null> {
    return findOwned(this.reads.collection<MixSessionDocument>('mix_sessions'), sessionId, userId);
  }
}

@QueryHandler(ListMixSessions)
export class ListMixSessionsHandler implements IQueryHandler<ListMixSessions, MixSessionDocument[]> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId }: ListMixSessions): Promise<MixSessionDocument[]> {
    return this.reads
      .collection<MixSessionDocument>('mix_sessions')
      .find({ userId }, { sort: { createdAt: -1 }, limit: 100 });
  }
}

@QueryHandler(ListRecentMixes)
export class ListRecentMixesHandler implements IQueryHandler<ListRecentMixes, RecentMixes> {
  constructor(private readonly reads: ReadStore) {}
  async execute({ userId, search, limit }: ListRecentMixes): Promise<RecentMixes> {
    const where: Filter = { userId };
    if (search) where.name = { $contains: search };
    const sessions = this.reads.collection<MixSessionDocument>('mix_sessions');
    const [found, totalCount] = await Promise.all([
      limit > 0 ? sessions.find(where, { sort: { createdAt: -1 }, limit }) : Promise.resolve([]),
      sessions.count(where),
    ]);
    return { sessions: found, totalCount };
  }
}

@QueryHandler(GetMixTrack)
export class GetMixTrackHandler implements IQueryHandler<GetMixTrack, MixTrackDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, trackId }: GetMixTrack): Promise<MixTrackDocument | null> {
    return findOwned(this.reads.collection<MixTrackDocument>('mix_tracks'), trackId, userId);
  }
}
