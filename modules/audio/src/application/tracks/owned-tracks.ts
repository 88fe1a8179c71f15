import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AuthenticatedUser } from '@kora/kernel/nest';
import { GetTrack, type TrackDocument } from '../../contracts/queries';
import { TrackNotFoundError } from '../../domain/errors';

/** The user's own track, as the routes on one track read it. */
@Injectable()
export class OwnedTracks {
  constructor(private readonly queries: QueryBus) {}

  async owned(user: AuthenticatedUser, trackId: string): Promise<TrackDocument> {
    const doc = await this.queries.execute<GetTrack, TrackDocument | null>(new GetTrack(user.userId, trackId));
    if (!doc) throw new TrackNotFoundError(); // another user's track is as absent as a deleted one
    return doc;
  }
}
