import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { BlobStore } from '@kora/kernel';
import type { AuthenticatedUser } from '@kora/kernel/nest';
import { GetMixSession, GetMixTrack, type MixSessionDocument, type MixTrackDocument } from '../../contracts/queries';
import type { MixerDecisions } from '@kora/contracts';
import { MixTrackNotFoundError, SessionNotFoundError } from '../../domain/errors';
import { mixerDecisions } from './mix-views';

/** What the session routes read: the user's own session (another user's is as absent as none) and the mixer's report. */
@Injectable()
export class SessionReads {
  constructor(
    private readonly queries: QueryBus,
    private readonly blobs: BlobStore,
  ) {}

  async session(user: AuthenticatedUser, sessionId: string): Promise<MixSessionDocument> {
    const doc = await this.queries.execute<GetMixSession, MixSessionDocument | null>(
      new GetMixSession(user.userId, sessionId),
    );
    if (!doc) throw new SessionNotFoundError();
    return doc;
  }

  async sessionOfTrack(user: AuthenticatedUser, trackId: string): Promise<MixSessionDocument> {
    const track = await this.queries.execute<GetMixTrack, MixTrackDocument | null>(
      new GetMixTrack(user.userId, trackId),
    );
    if (!track) throw new MixTrackNotFoundError();
    return this.session(user, track.sessionId);
  }

  /** The engine's per-track decisions once the mix is made (none before, or when its report cannot be read). */
  async decisions(doc: MixSessionDocument): Promise<Map<string, MixerDecisions>> {
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
}
