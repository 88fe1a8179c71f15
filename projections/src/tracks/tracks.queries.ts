import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  CountTracksInProgress,
  type EngineSpeedDocument,
  GetEngineSpeed,
  GetLibrary,
  GetTrack,
  IN_PROGRESS_STATUSES,
  type LibraryDocument,
  ListTracks,
  type TrackDocument,
  type TrackPage,
} from '@kora/audio/contracts';
import { type Filter, findOwned, ReadStore } from '@kora/kernel';

@QueryHandler(GetTrack)
export class GetTrackHandler implements IQueryHandler<GetTrack, TrackDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, trackId }: GetTrack): Promise<TrackDocument | null> {
    return findOwned(this.reads.collection<TrackDocument>('tracks'), trackId, userId);
  }
}

@QueryHandler(ListTracks)
export class ListTracksHandler implements IQueryHandler<ListTracks, TrackPage> {
  constructor(private readonly reads: ReadStore) {}
  async execute({ filter, page, limit, skip }: ListTracks): Promise<TrackPage> {
    const where: Filter = { userId: filter.userId };
    if (filter.service) where.service = filter.service;
    if (filter.isDemo !== undefined) where.isDemo = filter.isDemo;
    if (filter.trackId) where._id = filter.trackId;
    if (filter.search) where.filename = { $contains: filter.search };
    const tracks = this.reads.collection<TrackDocument>('tracks');
    const [found, totalCount] = await Promise.all([
      limit > 0 ? tracks.find(where, { sort: { createdAt: -1 }, skip: skip ?? (page - 1) * limit, limit }) : [],
      tracks.count(where),
    ]);
    return { tracks: found, totalCount };
  }
}

@QueryHandler(CountTracksInProgress)
export class CountTracksInProgressHandler implements IQueryHandler<CountTracksInProgress, number> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId, service }: CountTracksInProgress): Promise<number> {
    return this.reads
      .collection('tracks')
      .count({ userId, service, isDemo: false, status: { $in: IN_PROGRESS_STATUSES } });
  }
}

@QueryHandler(GetLibrary)
export class GetLibraryHandler implements IQueryHandler<GetLibrary, LibraryDocument[]> {
  constructor(private readonly reads: ReadStore) {}
  async execute({ userId, limit }: GetLibrary): Promise<LibraryDocument[]> {
    const newestFirst = await this.reads
      .collection<LibraryDocument>('library')
      .find({ userId }, { sort: { createdAt: -1 } });
    const seen = new Set<string>();
    const collapsed: LibraryDocument[] = [];
    for (const doc of newestFirst) {
      // Copies of one file share the name (but for a " (n)") and the size; two uploads that only share a name are
      // two files, both listed.
      const key = `${doc.collapseKey}\u0000${doc.fileSize}`;
      if (seen.has(key)) continue;
      seen.add(key);
      collapsed.push(doc);
      if (collapsed.length === limit) break;
    }
    return collapsed;
  }
}

@QueryHandler(GetEngineSpeed)
export class GetEngineSpeedHandler implements IQueryHandler<GetEngineSpeed, EngineSpeedDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ service }: GetEngineSpeed): Promise<EngineSpeedDocument | null> {
    return this.reads.collection<EngineSpeedDocument>('engine_speed').findById(service);
  }
}
