import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  GetMixSession,
  GetMixTrack,
  ListMixSessions,
  type MixSessionDocument,
  type MixTrackDocument,
} from '@kora/mixing/contracts';
import { findOwned, ReadStore } from '@kora/kernel';

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

@QueryHandler(GetMixTrack)
export class GetMixTrackHandler implements IQueryHandler<GetMixTrack, MixTrackDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, trackId }: GetMixTrack): Promise<MixTrackDocument | null> {
    return findOwned(this.reads.collection<MixTrackDocument>('mix_tracks'), trackId, userId);
  }
}
