import type { DomainEvent } from '@kora/kernel';
import type { TrackService, TrackStatus } from '@kora/contracts';

/** The services a track can be processed by, as the API speaks them (`@kora/contracts`). */
export { TRACK_SERVICES, type TrackService } from '@kora/contracts';

export const STEM_MODES = ['vocals', 'drums', 'guitars', 'full'] as const;
export type StemMode = (typeof STEM_MODES)[number];

export const ENHANCEMENT_PRESETS = ['voice', 'podcast', 'music', 'audio', 'video'] as const;
export type EnhancementPreset = (typeof ENHANCEMENT_PRESETS)[number];

/** The spec's statuses and CANCELLED, as the API speaks them (`@kora/contracts`). */
export { TRACK_STATUSES, type TrackStatus } from '@kora/contracts';

/** Statuses in which the engine is (or will be) working on the track. */
export const IN_PROGRESS: readonly TrackStatus[] = [
  'UPLOADING',
  'PROCESSING',
  'ANALYZING',
  'ENHANCING',
  'FINALIZING',
  'STEMS_PROCESSING',
];

/** How far mastering moves the track toward its targets (the engine's intensities). */
export const MASTERING_INTENSITIES = ['low', 'medium', 'high'] as const;
export type MasteringIntensity = (typeof MASTERING_INTENSITIES)[number];

/**
 * Loudness targets a master can aim for, by where it will be played: streaming -14 LUFS (Spotify, YouTube, Deezer:
 * the spec's recommendation), apple -16 LUFS (Apple Music), club -9 LUFS (DJ sets, loud masters).
 */
export const MASTERING_TARGETS = ['streaming', 'apple', 'club'] as const;
export type MasteringTarget = (typeof MASTERING_TARGETS)[number];

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
