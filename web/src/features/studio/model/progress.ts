/**
 * The progress rules of the processing view (spec §4), as pure functions of what is known at a given instant.
 *
 * - The upload ring: the upload phase fills at most 30 %; the processing view's bar takes over from there and covers
 *   30 to 99 %, 100 being the result.
 * - Processing: the server's word is the share of the job done (by time, from the engine's measured speed and its
 *   progress: `progress-estimate.ts` on the server) and the time left, as a duration: the bar moves from that share
 *   toward the end over the time left, a little at most between two words, so that neither machine's clock matters.
 *   Before the server's first word, time over a default duration of 3 minutes (5 for stem separation, 8 for AI
 *   mixing), capped at 80 %. Never past 99 % while the job runs, and never back.
 * - Steps: each of the service's steps is completed, processing or waiting according to the share done.
 */
import type { MixCard, TrackService } from '@kora/contracts';

/** The studio's services: a track's (`TrackService`) and AI mixing, which works on sessions (`MixCard`). */
export type StudioService = TrackService | MixCard['service'];

/** Statuses that carry a result to listen to. */
export const RESULT_STATUSES = ['PREVIEW_READY', 'MASTER_READY', 'STEMS_READY', 'COMPLETED'] as const;

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

/** Where the processing bar starts: the upload ring's end. */
export const PROCESSING_FROM = 30;
/** How far the bar may move on its own between two words from the server, as a share of the job. */
const BETWEEN_WORDS = 0.05;

/** The server's last word on a running job, and when it arrived (this machine's clock). */
export interface ProgressWord {
  /** Share of the job done, 0 to 1. */
  progress: number;
  /** Time left, ms, when the server said. */
  remainingMs: number;
  receivedAt: number;
}

export interface ProcessingSnapshot {
  service: StudioService;
  status: string;
  /** When this view began watching the job (this machine's clock), for the time before the server's first word. */
  startedAt: number;
  now: number;
  word: ProgressWord | null;
  /** The value shown before, so progress never goes back. */
  previous: number;
}

/** The share of the job done at `now` by the server's last word, moving toward the end over the time it gave. */
function shareDone(word: ProgressWord, now: number): number {
  const since = Math.max(0, now - word.receivedAt);
  const ahead = word.remainingMs > 0 ? (1 - word.progress) * Math.min(1, since / word.remainingMs) : 0;
  return word.progress + Math.min(BETWEEN_WORDS, ahead);
}

/** Percent shown by the processing bar (30-100). */
export function processingPercent(snapshot: ProcessingSnapshot): number {
  const { status, startedAt, now, word, previous, service } = snapshot;
  if (isResult(status)) return 100;
  if (status === 'FAILED' || status === 'CANCELLED') return previous;
  const span = 100 - PROCESSING_FROM;
  const value = word
    ? Math.min(99, PROCESSING_FROM + span * shareDone(word, now))
    : Math.min(80, PROCESSING_FROM + span * (Math.max(0, now - startedAt) / DEFAULT_DURATION_MS[service]));
  return Math.max(previous, PROCESSING_FROM, Math.floor(value));
}

/** The share of the job behind a percent of the bar (0 to 1), for the step list. */
export function processingShare(percent: number): number {
  return Math.min(1, Math.max(0, (percent - PROCESSING_FROM) / (100 - PROCESSING_FROM)));
}

/** Whole seconds left by the server's last word (null without one; 0 once it has passed). */
export function remainingSeconds(word: ProgressWord | null, now: number): number | null {
  if (!word) return null;
  return Math.max(0, Math.ceil((word.remainingMs - Math.max(0, now - word.receivedAt)) / 1000));
}

/** The server's word in a status answer or message, when it carries one. */
export function progressWord(status: {
  progress?: number | null;
  remainingMs?: number | null;
  receivedAt?: number;
}): ProgressWord | null {
  const { progress, remainingMs, receivedAt } = status;
  if (typeof progress !== 'number' || typeof remainingMs !== 'number' || typeof receivedAt !== 'number') return null;
  return { progress: Math.min(1, Math.max(0, progress)), remainingMs: Math.max(0, remainingMs), receivedAt };
}

export type StepState = 'completed' | 'processing' | 'waiting';

/** The state of each of `count` steps at `share` of the job (0 to 1): step i covers [i/count, (i+1)/count). */
export function stepStates(count: number, share: number, done: boolean): StepState[] {
  return Array.from({ length: count }, (_, index) => {
    if (done) return 'completed';
    if (share >= (index + 1) / count) return 'completed';
    if (share >= index / count) return 'processing';
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
