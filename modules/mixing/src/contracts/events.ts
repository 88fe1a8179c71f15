import type { MixSampleRate, MixTrackSettings, MusicalStyle } from '@kora/contracts';
import type { DomainEvent } from '@kora/kernel';

/** Per-track settings of a mix (the spec's track settings entry), as the API speaks them. */
export type { MixTrackSettings } from '@kora/contracts';

export interface MixTrackFile {
  trackId: string;
  filename: string;
  fileKey: string;
  fileSize: number;
  durationSec: number;
  sampleRate: number;
  channels: number;
}

/** CANCELLED: the user stopped the mix (told apart from a failure). */
export type { MixSessionStatus } from '@kora/contracts';

export type MixSessionCreated = DomainEvent<
  'MixSessionCreated',
  { sessionId: string; ownerId: string; name: string; mixingStyle: MusicalStyle; sampleRate: MixSampleRate }
>;
export type MixSessionChanged = DomainEvent<
  'MixSessionChanged',
  { mixingStyle: MusicalStyle; sampleRate: MixSampleRate }
>;
export type MixTrackAdded = DomainEvent<'MixTrackAdded', MixTrackFile & { settings: MixTrackSettings }>;
export type MixTrackSettingsChanged = DomainEvent<
  'MixTrackSettingsChanged',
  { trackId: string; settings: MixTrackSettings }
>;
export type MixTrackRemoved = DomainEvent<'MixTrackRemoved', { trackId: string; fileKey: string }>;
/** A session's style, rate and tracks (with their settings), as the mix is made from them. */
export interface MixedSession {
  mixingStyle: MusicalStyle;
  sampleRate: 44100 | 48000;
  tracks: Array<MixTrackFile & { settings: MixTrackSettings }>;
}

export type MixRequested = DomainEvent<
  'MixRequested',
  {
    jobId: string;
    /**
     * The session as it stood when the mix was asked for, so the reaction that enqueues the job needs nothing else.
     * Recorded since 2026-12-01; for an event recorded before, the reaction folds the session's stream up to it.
     */
    session?: MixedSession;
  }
>;
export type MixStarted = DomainEvent<'MixStarted', { jobId: string; workerId: string; attempt: number }>;
export type MixReady = DomainEvent<
  'MixReady',
  {
    jobId: string;
    /** Blob keys: mix, preview, report, and `track-<trackId>` for each processed track. */
    files: Record<string, string>;
    processingSeconds: number;
    durationSec: number;
  }
>;
export type MixFailed = DomainEvent<'MixFailed', { jobId: string; code: string; message: string }>;
export type MixCancelled = DomainEvent<'MixCancelled', { jobId: string }>;
/** The mix was paid for (billing, through `UnlockMix`): the final mix and each processed track stream in full. */
export type MixUnlocked = DomainEvent<'MixUnlocked', { via: 'payment' | 'credit' }>;

export type MixEvent =
  | MixSessionCreated
  | MixSessionChanged
  | MixTrackAdded
  | MixTrackSettingsChanged
  | MixTrackRemoved
  | MixRequested
  | MixStarted
  | MixReady
  | MixFailed
  | MixCancelled
  | MixUnlocked;

export const MIX_EVENT_TYPES = [
  'MixSessionCreated',
  'MixSessionChanged',
  'MixTrackAdded',
  'MixTrackSettingsChanged',
  'MixTrackRemoved',
  'MixRequested',
  'MixStarted',
  'MixReady',
  'MixFailed',
  'MixCancelled',
  'MixUnlocked',
] as const satisfies readonly MixEvent['type'][];
