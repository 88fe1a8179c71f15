import type { MixSessionStatus, MixTrackFile, MixTrackSettings } from './events';

/** The mixing sessions read model (`mix_sessions`). */
export interface MixSessionDocument {
  _id: string;
  userId: string;
  name: string;
  mixingStyle: string;
  sampleRate: 44100 | 48000;
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

export class GetMixTrack {
  constructor(
    readonly userId: string,
    readonly trackId: string,
  ) {}
}
