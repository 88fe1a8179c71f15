import { describe, expect, it } from '@jest/globals';
import {
  processingPercent,
  remainingSeconds,
  STEPS,
  stepStates,
  uploadRingPercent,
  type ProcessingSnapshot,
} from './progress';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const at = (seconds: number) => T0 + seconds * 1000;
const iso = (seconds: number) => new Date(at(seconds)).toISOString();

const snapshot = (overrides: Partial<ProcessingSnapshot>): ProcessingSnapshot => ({
  service: 'AI_MASTERING',
  status: 'PROCESSING',
  startedAt: T0,
  now: T0,
  estimatedCompletion: null,
  serverProgress: null,
  previous: 0,
  ...overrides,
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
  it('follows the time toward the server estimate and stops at 99 %', () => {
    const estimate = iso(100);
    expect(processingPercent(snapshot({ now: at(50), estimatedCompletion: estimate }))).toBe(50);
    expect(processingPercent(snapshot({ now: at(100), estimatedCompletion: estimate }))).toBe(99);
    expect(processingPercent(snapshot({ now: at(1000), estimatedCompletion: estimate }))).toBe(99);
  });

  it('without an estimate, runs over the default duration per service and stops at 80 %', () => {
    // Mastering: 3 minutes; stem separation: 5.
    expect(processingPercent(snapshot({ now: at(90) }))).toBe(50);
    expect(processingPercent(snapshot({ now: at(90), service: 'STEM_SEPARATION' }))).toBe(30);
    expect(processingPercent(snapshot({ now: at(600) }))).toBe(80);
    expect(processingPercent(snapshot({ now: at(10_000), service: 'AI_MIXING' }))).toBe(80);
  });

  it('takes the engine’s own progress as a floor', () => {
    expect(processingPercent(snapshot({ now: at(10), estimatedCompletion: iso(100), serverProgress: 0.6 }))).toBe(60);
    expect(processingPercent(snapshot({ now: at(10), serverProgress: 1 }))).toBe(80);
  });

  it('never goes back, and a finished result is 100 %', () => {
    expect(processingPercent(snapshot({ now: at(10), estimatedCompletion: iso(100), previous: 70 }))).toBe(70);
    expect(processingPercent(snapshot({ status: 'PREVIEW_READY', previous: 12 }))).toBe(100);
    expect(processingPercent(snapshot({ status: 'STEMS_READY' }))).toBe(100);
    expect(processingPercent(snapshot({ status: 'FAILED', now: at(170), previous: 42 }))).toBe(42);
  });

  it('counts the time left from the estimate', () => {
    expect(remainingSeconds(iso(90), at(30))).toBe(60);
    expect(remainingSeconds(iso(30.2), at(30))).toBe(1);
    expect(remainingSeconds(iso(10), at(30))).toBe(0);
    expect(remainingSeconds(null, at(30))).toBeNull();
    expect(remainingSeconds('not a date', at(30))).toBeNull();
  });
});

describe('the step list', () => {
  it('has 7 mastering, 4 stems, 5 enhancement and 6 mixing steps (spec §9)', () => {
    expect(STEPS.AI_MASTERING).toHaveLength(7);
    expect(STEPS.STEM_SEPARATION).toHaveLength(4);
    expect(STEPS.AUDIO_ENHANCEMENT).toHaveLength(5);
    expect(STEPS.AI_MIXING).toHaveLength(6);
  });

  it('marks steps completed, processing or waiting by progress', () => {
    expect(stepStates(4, 0, false)).toEqual(['processing', 'waiting', 'waiting', 'waiting']);
    expect(stepStates(4, 50, false)).toEqual(['completed', 'completed', 'processing', 'waiting']);
    expect(stepStates(4, 99, false)).toEqual(['completed', 'completed', 'completed', 'processing']);
    expect(stepStates(4, 10, true)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });
});
