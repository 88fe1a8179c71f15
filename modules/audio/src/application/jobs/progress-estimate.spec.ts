import { describe, expect, it } from '@jest/globals';
import { estimateJob, LEAD } from './progress-estimate';

const T0 = 1_000_000;
/** The estimate `seconds` into a job the model expects to take `expected` s, the engine at `engine`. */
const at = (seconds: number, expected: number, engine: number) =>
  estimateJob({ startedAt: T0, now: T0 + seconds * 1000, expectedMs: expected * 1000, engineProgress: engine });

describe('a running job’s share done and time left', () => {
  it('follows the model while the engine has said little, and the engine once it is a quarter of the way', () => {
    // 2 s into a 10 s job, the engine at 18 %: between the two.
    expect(at(2, 10, 0.18).progress).toBeCloseTo(0.185, 3);
    // The engine at half way after 5 s: 5 s left, whatever the model said.
    expect(at(5, 30, 0.5)).toEqual({ progress: 0.5, remainingMs: 5000 });
  });

  it('never runs more than a few percent ahead of the engine, however optimistic the model', () => {
    // The model says 2 s; the job is really 11 s long (the engine at 9 % after 1 s).
    const early = at(1, 2, 0.09);
    expect(early.progress).toBeCloseTo(0.09 + LEAD, 6);
    // Overdue on the model: the engine's extrapolation gives the time left, not a frozen 99 %.
    const late = at(4, 2, 0.36);
    expect(late.progress).toBeLessThan(0.45);
    expect(late.remainingMs).toBeGreaterThan(6000);
  });

  it('never falls behind the engine, however pessimistic the model', () => {
    expect(at(3, 600, 0.7).progress).toBe(0.7);
  });

  it('says nothing done before the engine speaks, and stops short of the end until the result', () => {
    expect(at(0, 10, 0)).toEqual({ progress: 0, remainingMs: 10_000 });
    expect(at(9, 10, 1).progress).toBe(0.99);
    expect(at(30, 10, 0).remainingMs).toBe(0);
  });

  it('copes with what a read model may hold: no duration, a clock behind the start', () => {
    expect(at(1, 0, 0.5).progress).toBe(0.5);
    expect(estimateJob({ startedAt: T0, now: T0 - 5000, expectedMs: 4000, engineProgress: 0 })).toEqual({
      progress: 0,
      remainingMs: 4000,
    });
  });
});
