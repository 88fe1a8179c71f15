import type { MixSampleRate, MusicalStyle } from '@kora/contracts';
import type { MixSessionStatus, MixTrackFile, MixTrackSettings } from './events';

/** The mixing sessions read model (`mix_sessions`). */
export interface MixSessionDocument {
  _id: string;
  userId: string;
  name: string;
  mixingStyle: MusicalStyle;
  sampleRate: MixSampleRate;
  status: MixSessionStatus;
  error: { code: string; message: string } | null;
  tracks: Array<MixTrackFile & { settings: MixTrackSettings }>;
  files: Record<string, string>;
  jobId: string | null;
  unlocked: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Which session a mix track belongs to (`mix_tracks`), for the routes addressed by track id. */
export interface MixTrackDocument {
  _id: string;
  sessionId: string;
  userId: string;
}

export class GetMixSession {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
  ) {}
}

export class ListMixSessions {
  constructor(readonly userId: string) {}
}

/**
 * The newest `limit` sessions of a user (name containing `search`, any case, when given) and how many match: the
 * mixing cards of the recent tracks list.
 */
export class ListRecentMixes {
  constructor(
    readonly userId: string,
    readonly search: string | null,
    readonly limit: number,
  ) {}
}

export interface RecentMixes {
  sessions: MixSessionDocument[];
  totalCount: number;
}

export class GetMixTrack {
  constructor(
    readonly userId: string,
    readonly trackId: string,
  ) {}
}
