import { describe, expect, it } from '@jest/globals';
import {
  processingPercent,
  processingShare,
  progressWord,
  remainingSeconds,
  STEPS,
  stepStates,
  uploadRingPercent,
  type ProcessingSnapshot,
} from './progress';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const at = (seconds: number) => T0 + seconds * 1000;

const snapshot = (overrides: Partial<ProcessingSnapshot>): ProcessingSnapshot => ({
  service: 'AI_MASTERING',
  status: 'PROCESSING',
  startedAt: T0,
  now: T0,
  word: null,
  previous: 0,
  ...overrides,
});
/** The server said, at `seconds`, that `progress` of the job was done and `leftSeconds` remained. */
const word = (seconds: number, progress: number, leftSeconds: number) => ({
  progress,
  remainingMs: leftSeconds * 1000,
  receivedAt: at(seconds),
});

describe('the upload ring (spec §4)', () => {
  it('fills at most 30 % while the bytes go up', () => {
    expect(uploadRingPercent(0, 1000)).toBe(0);
    expect(uploadRingPercent(500, 1000)).toBe(15);
    expect(uploadRingPercent(1000, 1000)).toBe(30);
    expect(uploadRingPercent(5000, 1000)).toBe(30);
    expect(uploadRingPercent(10, 0)).toBe(0);
  });
});

describe('processing progress (spec §4)', () => {
  it('starts where the upload ring ended and shows the server’s share of the job over 30 to 99 %', () => {
    expect(processingPercent(snapshot({ now: at(0), word: word(0, 0, 10) }))).toBe(30);
    expect(processingPercent(snapshot({ now: at(5), word: word(5, 0.5, 5) }))).toBe(65);
    expect(processingPercent(snapshot({ now: at(9), word: word(9, 0.99, 0) }))).toBe(99);
    expect(processingPercent(snapshot({ now: at(60), word: word(9, 0.99, 0) }))).toBe(99);
  });

  it('moves toward the end over the time left between two words, a little at most', () => {
    // Half the job done, 10 s left: 0.25 s later, 1.25 % more of the job.
    expect(processingPercent(snapshot({ now: at(20.25), word: word(20, 0.5, 10) }))).toBe(65);
    expect(processingPercent(snapshot({ now: at(21), word: word(20, 0.5, 10) }))).toBe(68);
    // No word for a minute: no more than 5 % of the job beyond the last one.
    expect(processingPercent(snapshot({ now: at(80), word: word(20, 0.5, 10) }))).toBe(68);
  });

  it('does not depend on the server’s clock: only durations cross the wire', () => {
    // The same word, received by machines whose clocks disagree by an hour, shows the same.
    const here = processingPercent(snapshot({ now: at(3), word: word(2, 0.4, 6) }));
    const skewed = processingPercent(
      snapshot({ startedAt: at(3600), now: at(3603), word: { ...word(2, 0.4, 6), receivedAt: at(3602) } }),
    );
    expect(skewed).toBe(here);
  });

  it('before the server’s first word, runs over the default duration per service and stops at 80 %', () => {
    // Mastering: 3 minutes; stem separation: 5.
    expect(processingPercent(snapshot({ now: at(90) }))).toBe(30 + 35);
    expect(processingPercent(snapshot({ now: at(90), service: 'STEM_SEPARATION' }))).toBe(30 + 21);
    expect(processingPercent(snapshot({ now: at(600) }))).toBe(80);
    expect(processingPercent(snapshot({ now: at(10_000), service: 'AI_MIXING' }))).toBe(80);
  });

  it('never goes back, and a finished result is 100 %', () => {
    expect(processingPercent(snapshot({ now: at(10), word: word(10, 0.1, 90), previous: 70 }))).toBe(70);
    expect(processingPercent(snapshot({ status: 'PREVIEW_READY', previous: 12 }))).toBe(100);
    expect(processingPercent(snapshot({ status: 'STEMS_READY' }))).toBe(100);
    expect(processingPercent(snapshot({ status: 'FAILED', now: at(170), previous: 42 }))).toBe(42);
  });

  it('counts the time left from the server’s word', () => {
    expect(remainingSeconds(word(30, 0.2, 60), at(30))).toBe(60);
    expect(remainingSeconds(word(30, 0.2, 60), at(89.5))).toBe(1);
    expect(remainingSeconds(word(30, 0.2, 60), at(95))).toBe(0);
    expect(remainingSeconds(null, at(30))).toBeNull();
  });

  it('reads the word from a status answer only when it carries one', () => {
    expect(progressWord({ progress: 0.5, remainingMs: 4000, receivedAt: T0 })).toEqual(word(0, 0.5, 4));
    expect(progressWord({ progress: 1, remainingMs: null, receivedAt: T0 })).toBeNull();
    expect(progressWord({ progress: 0.5, remainingMs: 4000 })).toBeNull();
  });

  it('maps the bar back to the share of the job for the steps', () => {
    expect(processingShare(30)).toBe(0);
    expect(processingShare(65)).toBe(0.5);
    expect(processingShare(100)).toBe(1);
    expect(processingShare(10)).toBe(0);
  });
});

describe('the step list', () => {
  it('has 7 mastering, 4 stems, 5 enhancement and 6 mixing steps (spec §9)', () => {
    expect(STEPS.AI_MASTERING).toHaveLength(7);
    expect(STEPS.STEM_SEPARATION).toHaveLength(4);
    expect(STEPS.AUDIO_ENHANCEMENT).toHaveLength(5);
    expect(STEPS.AI_MIXING).toHaveLength(6);
  });

  it('marks steps completed, processing or waiting by the share of the job done', () => {
    expect(stepStates(4, 0, false)).toEqual(['processing', 'waiting', 'waiting', 'waiting']);
    expect(stepStates(4, 0.5, false)).toEqual(['completed', 'completed', 'processing', 'waiting']);
    expect(stepStates(4, 0.99, false)).toEqual(['completed', 'completed', 'completed', 'processing']);
    expect(stepStates(4, 0.1, true)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });
});
