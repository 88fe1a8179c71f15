import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetTrack, type TrackDocument, TrackNotFoundError } from '@kora/audio/contracts';
import { GetMixSession, type MixSessionDocument } from '@kora/mixing/contracts';
import type { BillingService } from '../contracts/events';

/** What a purchase unlocks: a processed track, or a mix session (AI_MIXING). */
export interface UnlockTarget {
  kind: 'track' | 'mix';
  id: string;
  service: BillingService;
  name: string;
  durationSec: number;
  unlocked: boolean;
  /** The preview exists, so there is a result to unlock. */
  ready: boolean;
  status: string;
}

const READY_STATUSES = ['PREVIEW_READY', 'STEMS_READY', 'MASTER_READY', 'COMPLETED'];

export const targetNotFound = (): TrackNotFoundError => new TrackNotFoundError();

/** Finds the user's track or mix session by id through the owners' queries; another user's is as absent as none. */
@Injectable()
export class UnlockTargets {
  constructor(private readonly queries: QueryBus) {}

  async find(userId: string, id: string): Promise<UnlockTarget | null> {
    const track = await this.queries.execute<GetTrack, TrackDocument | null>(new GetTrack(userId, id));
    if (track) {
      return {
        kind: 'track',
        id,
        service: track.service,
        name: track.filename.replace(/<[^>]*>/g, ''),
        durationSec: Math.round(track.durationSec),
        unlocked: track.unlocked,
        ready: READY_STATUSES.includes(track.status),
        status: track.status,
      };
    }
    const mix = await this.queries.execute<GetMixSession, MixSessionDocument | null>(new GetMixSession(userId, id));
    if (!mix) return null;
    return {
      kind: 'mix',
      id,
      service: 'AI_MIXING',
      name: mix.name,
      durationSec: Math.round(Math.max(0, ...mix.tracks.map((track) => track.durationSec))),
      unlocked: mix.unlocked,
      ready: mix.status === 'COMPLETED',
      status: mix.status,
    };
  }

  async require(userId: string, id: string): Promise<UnlockTarget> {
    const target = await this.find(userId, id);
    if (!target) throw targetNotFound();
    return target;
  }
}
