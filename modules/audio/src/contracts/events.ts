import type { DomainEvent } from '@kora/kernel';
import type {
  EnhancementPreset,
  MasteringIntensity,
  MasteringTarget,
  StemMode,
  TrackService,
  TrackStatus,
} from '@kora/contracts';

/** The services a track can be processed by, as the API speaks them (`@kora/contracts`). */
export { TRACK_SERVICES, type TrackService } from '@kora/contracts';

/** What an upload may ask of the engine, as the API speaks it (`@kora/contracts`). */
export {
  ENHANCEMENT_PRESETS,
  type EnhancementPreset,
  MASTERING_INTENSITIES,
  type MasteringIntensity,
  MASTERING_TARGETS,
  type MasteringTarget,
  STEM_MODES,
  type StemMode,
} from '@kora/contracts';

/** The spec's statuses and CANCELLED, as the API speaks them (`@kora/contracts`). */
export { TRACK_STATUSES, type TrackStatus } from '@kora/contracts';

/** Statuses in which the engine is (or will be) working on the track (`@kora/contracts`). */
export { IN_PROGRESS_STATUSES } from '@kora/contracts';

/** What the engine is asked to do. Mastering's intensity and target are absent from tracks uploaded before them. */
export interface ProcessingOptions {
  preset: EnhancementPreset | null;
  mode: StemMode | null;
  intensity?: MasteringIntensity | null;
  /** Null with a reference: the master takes the reference's loudness. */
  target?: MasteringTarget | null;
  /** Blob key of a reference track whose tonal balance (and loudness, without a target) the master matches. */
  referenceKey?: string | null;
}

/** Blob keys of a track's files, by stream type (original, preview, master, master48, enhanced, report, stems). */
export type TrackFiles = Record<string, string>;

export type TrackUploaded = DomainEvent<
  'TrackUploaded',
  {
    trackId: string;
    ownerId: string;
    service: TrackService;
    /** As the user named it (HTML is stripped when shown, never when stored). */
    filename: string;
    /** Container found by content (wav, mp3, mp4, mov, mpeg...). */
    format: string;
    contentType: string;
    fileSize: number;
    durationSec: number;
    sampleRate: number;
    channels: number;
    isVideo: boolean;
    isDemo: boolean;
    originalKey: string;
  }
>;

export type ProcessingRequested = DomainEvent<
  'ProcessingRequested',
  {
    jobId: string;
    service: TrackService;
    options: ProcessingOptions;
    /**
     * The upload the job works on (the `TrackUploaded` appended with it), so the reaction that enqueues the job needs
     * nothing else. Recorded since 2026-11-28; for an event recorded before, the reaction reads it from the stream.
     */
    upload?: TrackUploaded['data'];
  }
>;
export type ProcessingStarted = DomainEvent<'ProcessingStarted', { jobId: string; workerId: string; attempt: number }>;
export type ProcessingProgressed = DomainEvent<
  'ProcessingProgressed',
  { jobId: string; status: TrackStatus; progress: number }
>;

export interface LoudnessSummary {
  integratedLufs: number;
  truePeakDbtp: number;
  loudnessRange: number;
}

export type PreviewReady = DomainEvent<
  'PreviewReady',
  {
    jobId: string;
    service: TrackService;
    files: TrackFiles;
    /** Seconds the engine took, and the input's duration: the measured speed behind time estimates. */
    processingSeconds: number;
    durationSec: number;
    before: LoudnessSummary | null;
    after: LoudnessSummary | null;
  }
>;
export type StemsReady = DomainEvent<
  'StemsReady',
  {
    jobId: string;
    service: TrackService;
    files: TrackFiles;
    stems: string[];
    processingSeconds: number;
    durationSec: number;
  }
>;
export type ProcessingFailed = DomainEvent<'ProcessingFailed', { jobId: string; code: string; message: string }>;
export type ProcessingCancelled = DomainEvent<'ProcessingCancelled', { jobId: string }>;
export type TrackUnlocked = DomainEvent<'TrackUnlocked', { via: 'demo' | 'payment' | 'credit' }>;
/** The final result is unlocked and ready: the track shows MASTER_READY, whatever its service. */
export type MasterReady = DomainEvent<'MasterReady', { service: TrackService }>;
export type TrackDeleted = DomainEvent<'TrackDeleted', { keys: string[] }>;
export type TrackResultEmailed = DomainEvent<'TrackResultEmailed', { recipientFingerprint: string; expiresAt: string }>;

export type TrackEvent =
  | TrackUploaded
  | ProcessingRequested
  | ProcessingStarted
  | ProcessingProgressed
  | PreviewReady
  | StemsReady
  | ProcessingFailed
  | ProcessingCancelled
  | TrackUnlocked
  | MasterReady
  | TrackDeleted
  | TrackResultEmailed;

export const TRACK_EVENT_TYPES = [
  'TrackUploaded',
  'ProcessingRequested',
  'ProcessingStarted',
  'ProcessingProgressed',
  'PreviewReady',
  'StemsReady',
  'ProcessingFailed',
  'ProcessingCancelled',
  'TrackUnlocked',
  'MasterReady',
  'TrackDeleted',
  'TrackResultEmailed',
] as const satisfies readonly TrackEvent['type'][];
