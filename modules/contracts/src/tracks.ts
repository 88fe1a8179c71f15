import { ENHANCE_PRESETS, INTENSITIES, type LoudnessPreset, type StemMode } from '@kora/audio-engine/types';
import type { MixSessionStatus } from './mixes';

/** The services a track can be processed by (AI mixing works on sessions: `MixCard`). */
export const TRACK_SERVICES = ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT'] as const;
export type TrackService = (typeof TRACK_SERVICES)[number];

/** What a track's upload may ask of the engine (the engine declares the lists; the API takes them as they are). */
export { STEM_MODES, STEM_ORDER, sortStems, type StemMode } from '@kora/audio-engine/types';
export const ENHANCEMENT_PRESETS = ENHANCE_PRESETS;
export type EnhancementPreset = (typeof ENHANCEMENT_PRESETS)[number];
/** How far mastering moves the track toward its targets. */
export const MASTERING_INTENSITIES = INTENSITIES;
export type MasteringIntensity = (typeof MASTERING_INTENSITIES)[number];
/**
 * Loudness targets a master can aim for, by where it will be played: streaming -14 LUFS (Spotify, YouTube, Deezer:
 * the spec's recommendation), apple -16 LUFS (Apple Music), club -9 LUFS (DJ sets, loud masters). The engine's
 * `podcast` level is enhancement's, not offered for mastering.
 */
export const MASTERING_TARGETS = ['streaming', 'apple', 'club'] as const satisfies readonly LoudnessPreset[];
export type MasteringTarget = (typeof MASTERING_TARGETS)[number];

/**
 * The spec's statuses, in the order a track goes through them, and CANCELLED: a job the user stopped (the spec's
 * abort), told apart from a failure.
 */
export const TRACK_STATUSES = [
  'UPLOADING',
  'PROCESSING',
  'ANALYZING',
  'ENHANCING',
  'FINALIZING',
  'PREVIEW_READY',
  'MASTER_READY',
  'STEMS_PROCESSING',
  'STEMS_READY',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
] as const;
export type TrackStatus = (typeof TRACK_STATUSES)[number];

/** Statuses in which the engine is (or will be) working on the track: the screens offer cancel instead of open. */
export const IN_PROGRESS_STATUSES: readonly TrackStatus[] = [
  'UPLOADING',
  'PROCESSING',
  'ANALYZING',
  'ENHANCING',
  'FINALIZING',
  'STEMS_PROCESSING',
];

export function isInProgress(status: string): boolean {
  return (IN_PROGRESS_STATUSES as readonly string[]).includes(status);
}

/** `GET /api/audio/track/{id}/status`: where the track is, and while its job runs, how far and how long still. */
export interface TrackStatusAnswer {
  status: TrackStatus;
  error: string | null;
  errorCode: string | null;
  /** While the job runs: the share done (0 to 1, by time); after it, 1. */
  progress: number;
  /** While the job runs: the time left, ms (a duration, so that the two machines' clocks need not agree). */
  remainingMs: number | null;
  estimatedCompletion: string | null;
}

/**
 * The `track.status` socket message to the owner: every status change recorded on a track (DELETED: it was deleted),
 * and a running job's estimates between them (with `remainingMs`); `progress` null where only the status moved.
 */
export interface TrackStatusMessage {
  trackId: string;
  status: TrackStatus | 'DELETED';
  progress: number | null;
  error: string | null;
  estimatedCompletion: string | null;
  remainingMs?: number;
}

/** Where a track's files play from (`GET /api/audio/track/{id}/stream/{type}`). */
export interface StreamUrls {
  original: string;
  preview: string | null;
  master: string | null;
  stems: Record<string, string>;
}

/** One side of a report (the input before, the result after): the engine's loudness analysis, the parts a client reads. */
export interface LoudnessFacts {
  integratedLufs: number | null;
  truePeakDbtp: number | null;
  loudnessRangeLu: number | null;
  /** Short-term loudness once per second (3 s windows ending at 3 s, 4 s, ...), LUFS. */
  shortTermCurveLufs: Array<number | null>;
  /** The 1/3-octave band levels, dB (null: no energy in the band). */
  spectrum: { bandsHz: number[]; levelsDb: Array<number | null> };
}

/**
 * Mastering against a reference track: the 1/3-octave curves of the reference, the input and the master (each band's
 * level minus the signal's integrated loudness, dB; null: no energy in the band), and the spectral distance (RMS over
 * `distanceBandHz`) from the input and from the master to the reference.
 */
export interface ReferenceMatch {
  method: 'third-octave filter bank';
  bandsHz: number[];
  referenceDb: Array<number | null>;
  inputDb: Array<number | null>;
  masterDb: Array<number | null>;
  distanceBandHz: [number, number];
  distanceBeforeDb: number;
  distanceAfterDb: number;
  /** distanceAfterDb <= distanceBeforeDb. */
  closer: boolean;
}

/**
 * `GET /api/audio/track/{id}/stream/report` of a mastered or enhanced track: the report the engine wrote
 * (`MasterReport`, `EnhanceReport` of the audio engine; a number that is not finite, silence's -Infinity, as null), the
 * parts a client reads. The audio module checks the engine's two reports against this type, so they cannot drift.
 */
export interface EngineReport {
  settings: {
    targetLufs: number;
    ceilingDbtp: number;
    /** Mastering: where the target came from, the intensity, the reference track's name (null without one). */
    targetSource?: 'default' | 'preset' | 'number' | 'reference';
    intensity?: MasteringIntensity;
    reference?: string | null;
    /** Enhancement: the preset asked for, and the chain run (voice and podcast are the speech chains). */
    preset?: EnhancementPreset;
    chain?: 'voice' | 'podcast' | 'music';
  };
  /**
   * Mastering: the loudness asked for against the loudness reached, and why it fell short (`limitedBy`) when it did
   * by more than the tolerance.
   */
  loudnessTarget?: {
    requestedLufs: number | null;
    achievedLufs: number | null;
    reached: boolean;
    limitedBy: 'true-peak-ceiling' | 'max-limiting' | 'target-range' | null;
  };
  before: LoudnessFacts;
  after: LoudnessFacts;
  /** Mastering: against a reference track; null without one. */
  referenceMatch?: ReferenceMatch | null;
  /** Mastering: where the preview starts in the track, s. */
  decisions?: { preview: { startSec: number } };
}

/**
 * What a job of a track's service asks for: the upload form's fields (multipart), the same as JSON in an upload naming
 * resumable uploads (`UploadRequest`), and the body of `POST /api/audio/track/{id}/reprocess`. An option of another
 * service is not read; one left out takes the service's default.
 */
export interface TrackOptions {
  service: TrackService;
  /** Audio enhancement's preset (default audio). */
  preset?: EnhancementPreset;
  /** Stem separation's mode (default vocals). */
  mode?: StemMode;
  /** Mastering's intensity (default medium). */
  intensity?: MasteringIntensity;
  /** Mastering's loudness target (default streaming; with a reference and no target, the reference's loudness). */
  target?: MasteringTarget;
}

/**
 * `POST /api/audio/upload` as JSON: the file sent by the resumable protocol (`/api/uploads`, purpose track) and, for
 * mastering only, a reference track sent the same way (purpose reference), by their upload ids; and the job's
 * options. Each upload is used once. The answer is the new `Track` (201).
 */
export interface UploadRequest extends TrackOptions {
  upload: string;
  reference?: string;
}

/** A track as the server sends it (`GET /api/audio/track/{id}`, the recent list, an upload's answer; spec §3). */
export interface Track {
  id: string;
  audioId: string;
  filename: string;
  format: string;
  service: TrackService;
  /** Stem separation's mode, null for the other services. */
  mode: StemMode | null;
  /** Audio enhancement's preset, null for the other services. */
  preset: EnhancementPreset | null;
  status: TrackStatus;
  error: string | null;
  errorCode: string | null;
  progress: number;
  createdAt: string;
  isDemo: boolean;
  isVideo: boolean;
  unlocked: boolean;
  creditsCost: number;
  fileSize: number;
  durationSec: number;
  originalUrl: string;
  previewUrl: string | null;
  masterUrl: string | null;
  stems: Record<string, string>;
  streamUrls: StreamUrls;
}

/**
 * A mixing session as a card of the recent tracks list: its name, how many tracks it mixes, its status, whether it
 * is paid for. It opens at the studio's `?mix={id}` address.
 */
export interface MixCard {
  kind: 'mix';
  id: string;
  service: 'AI_MIXING';
  name: string;
  /** The name again, under the field the list shows and searches for tracks. */
  filename: string;
  trackCount: number;
  status: MixSessionStatus;
  error: string | null;
  errorCode: string | null;
  unlocked: boolean;
  isDemo: false;
  mixingStyle: string;
  sampleRate: number;
  createdAt: string;
}

/** What the recent list shows: the user's tracks and mixing sessions, newest first. */
export type RecentItem = Track | MixCard;

export const isMixCard = (item: RecentItem): item is MixCard => 'kind' in item && item.kind === 'mix';

/** `GET /api/audio/tracks`: one page of the recent list. */
export interface RecentPage {
  tracks: RecentItem[];
  totalCount: number;
  page: number;
  limit: number;
}

/** A file of the media library (spec §3, Library track): an upload of the user's, by the track it came with. */
export interface LibraryTrack {
  id: string;
  filename: string;
  fileSize: number;
  createdAt: string;
}

/**
 * `GET /api/audio/library`: the newest uploads, copies of one file collapsed into the newest; with a service (and
 * preset), only the files it takes.
 */
export interface LibraryAnswer {
  tracks: LibraryTrack[];
  /** Uploads the chosen service would refuse (too small, too long, a video for audio): not listed. */
  hidden: number;
}

/** What `POST /api/audio/send-email` takes: the result to e-mail as links, and to whom. */
export interface ResultEmailRequest {
  trackId: string;
  recipientEmail: string;
  service?: string;
}

/** Its answer: when the links stop working. */
export interface ResultEmailAnswer {
  success: true;
  expiresAt: string;
}
