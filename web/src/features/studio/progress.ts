/**
 * The progress rules of the processing view (spec §4), as pure functions of what is known at a given instant.
 *
 * - The upload ring: the upload phase fills at most 30 %; the processing view's bar takes over from there.
 * - Processing: time-based from the server's estimated completion, never past 99 % (80 % while there is no estimate
 *   yet, over a default duration of 3 minutes, 5 for stem separation, 8 for AI mixing); the engine's own progress,
 *   when the server sends it, is a floor; the value never goes back.
 * - Steps: each of the service's steps is completed, processing or waiting according to the progress.
 */

export type StudioService = 'AI_MASTERING' | 'STEM_SEPARATION' | 'AUDIO_ENHANCEMENT' | 'AI_MIXING';

/** Statuses in which the engine is (or will be) working (spec §4). */
export const IN_PROGRESS_STATUSES = [
  'UPLOADING',
  'PROCESSING',
  'ANALYZING',
  'ENHANCING',
  'FINALIZING',
  'STEMS_PROCESSING',
] as const;

/** Statuses that carry a result to listen to. */
export const RESULT_STATUSES = ['PREVIEW_READY', 'MASTER_READY', 'STEMS_READY', 'COMPLETED'] as const;

export const isInProgress = (status: string): boolean => (IN_PROGRESS_STATUSES as readonly string[]).includes(status);
export const isResult = (status: string): boolean => (RESULT_STATUSES as readonly string[]).includes(status);

/** Processing time assumed before the server gives an estimate (spec §4). */
export const DEFAULT_DURATION_MS: Record<StudioService, number> = {
  AI_MASTERING: 3 * 60_000,
  AUDIO_ENHANCEMENT: 3 * 60_000,
  STEM_SEPARATION: 5 * 60_000,
  AI_MIXING: 8 * 60_000,
};

/** The ring during the upload itself: the bytes sent fill at most 30 %. */
export function uploadRingPercent(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(30, Math.max(0, Math.floor((loaded / total) * 30)));
}

export interface ProcessingSnapshot {
  service: StudioService;
  status: string;
  /** When processing started (the upload's answer, or when the view opened after a reload), ms. */
  startedAt: number;
  now: number;
  /** The server's estimated completion, ISO time, when it has one. */
  estimatedCompletion: string | null;
  /** The engine's progress, 0 to 1, when the server sends it. */
  serverProgress: number | null;
  /** The value shown before, so progress never goes back. */
  previous: number;
}

/** Percent shown by the processing bar (0-100). */
export function processingPercent(snapshot: ProcessingSnapshot): number {
  const { status, startedAt, now, estimatedCompletion, serverProgress, previous, service } = snapshot;
  if (isResult(status)) return 100;
  if (status === 'FAILED' || status === 'CANCELLED') return previous;
  const estimate = estimatedCompletion ? Date.parse(estimatedCompletion) : Number.NaN;
  const hasEstimate = Number.isFinite(estimate);
  const cap = hasEstimate ? 99 : 80;
  const totalMs = hasEstimate ? Math.max(1, estimate - startedAt) : DEFAULT_DURATION_MS[service];
  const elapsed = Math.max(0, now - startedAt);
  const byTime = (elapsed / totalMs) * 100;
  const byEngine = serverProgress !== null && Number.isFinite(serverProgress) ? serverProgress * 100 : 0;
  const value = Math.min(cap, Math.max(byTime, byEngine));
  return Math.max(previous, Math.floor(value));
}

/** Whole seconds left until the server's estimate (null without one; 0 once it has passed). */
export function remainingSeconds(estimatedCompletion: string | null, now: number): number | null {
  if (!estimatedCompletion) return null;
  const at = Date.parse(estimatedCompletion);
  if (!Number.isFinite(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export type StepState = 'completed' | 'processing' | 'waiting';

/** The state of each of `count` steps at `percent`: step i covers [i/count, (i+1)/count) of the way. */
export function stepStates(count: number, percent: number, done: boolean): StepState[] {
  return Array.from({ length: count }, (_, index) => {
    if (done) return 'completed';
    const start = (index / count) * 100;
    const end = ((index + 1) / count) * 100;
    if (percent >= end) return 'completed';
    if (percent >= start) return 'processing';
    return 'waiting';
  });
}

/** The step names of each service's list (spec §9: 7 mastering, 4 stems, 5 enhancement, 6 mixing). */
export const STEPS: Record<StudioService, readonly string[]> = {
  AI_MASTERING: ['analyze', 'tonal', 'dynamics', 'stereo', 'loudness', 'limiter', 'write'],
  STEM_SEPARATION: ['decode', 'separate', 'refine', 'write'],
  AUDIO_ENHANCEMENT: ['analyze', 'denoise', 'clarity', 'level', 'write'],
  AI_MIXING: ['decode', 'balance', 'tone', 'space', 'master', 'write'],
};
