import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { StageContext } from '../src/stage/context';
import type { JobProgress } from '../src/types';

function recording(progressIntervalMs: number) {
  const events: Array<JobProgress & { at: number }> = [];
  const ctx = new StageContext({ progressIntervalMs, onProgress: (e) => events.push({ ...e, at: performance.now() }) });
  return { ctx, events };
}

describe('StageContext heartbeat', () => {
  it('repeats the progress while a stage waits without ticking, and stops when the stage ends', async () => {
    const { ctx, events } = recording(100);
    ctx.plan({ encode: 1, write: 1 });
    await ctx.stage('encode', async (tick) => {
      await tick(0.4);
      await sleep(650); // a child process working: no tick
    });
    const duringEncode = events.filter((e) => e.stage === 'encode');
    // The stage's start, the tick, about six beats (at least three even on a loaded machine) and the stage's end.
    const beats = duringEncode.slice(2, -1);
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(beats.every((e) => e.progress === 0.2)).toBe(true);
    const ended = events.length;
    await sleep(350);
    expect(events.length).toBe(ended);
  });

  it('stops beating when the stage fails', async () => {
    const { ctx, events } = recording(50);
    ctx.plan({ encode: 1 });
    await expect(
      ctx.stage('encode', async () => {
        await sleep(120);
        throw new Error('encoder died');
      }),
    ).rejects.toThrow('encoder died');
    const count = events.length;
    expect(count).toBeGreaterThan(1);
    await sleep(200);
    expect(events.length).toBe(count);
  });

  it('sends nothing extra when no one listens', async () => {
    const ctx = new StageContext({ progressIntervalMs: 10 });
    ctx.plan({ encode: 1 });
    await expect(ctx.stage('encode', () => sleep(30).then(() => 'done'))).resolves.toBe('done');
  });
});
