import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticBand } from '../eval/signals';
import { runJob } from '../src/job/run-worker';
import { runJobInline } from '../src/job/run-inline';
import type { JobProgress } from '../src/types';
import { ENGINE_DIST, buildDist } from './support/build';
import { largestCpuGap } from './support/progress';
import { tempDir, writePcm } from './support/media';

const tmp = tempDir();
const file = (name: string) => join(tmp.dir, name);

beforeAll(async () => {
  buildDist();
  await writePcm(file('short.wav'), syntheticBand({ sampleRate: 44100, seconds: 6 }), 'pcm16');
  await writePcm(file('long.wav'), syntheticBand({ sampleRate: 44100, seconds: 45 }), 'pcm16');
}, 60_000);

afterAll(() => tmp.cleanup());

describe('runJob (worker thread)', () => {
  it('returns the same analysis as the inline runner', async () => {
    const inWorker = await runJob({ kind: 'analyze', input: file('short.wav') });
    const inline = await runJobInline({ kind: 'analyze', input: file('short.wav') });
    if (inWorker.kind !== 'analyze' || inline.kind !== 'analyze') throw new Error('unexpected result');
    expect(Math.abs(inWorker.report.integratedLufs - inline.report.integratedLufs)).toBeLessThan(1e-9);
    expect(inWorker.probe.container).toBe('wav');
  });

  it('reports progress 0..1, never decreasing, at least every second, without blocking the caller', async () => {
    const events: JobProgress[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    const start = performance.now();
    const cpuBefore = process.threadCpuUsage();
    const result = await runJob(
      { kind: 'master', input: file('long.wav'), outDir: file('progress') },
      { onProgress: (e) => events.push(e) },
    );
    const cpu = process.threadCpuUsage(cpuBefore);
    const elapsedMs = performance.now() - start;
    clearInterval(timer);
    expect(result.kind).toBe('master');
    expect(events.length).toBeGreaterThan(5);
    // Said by the calling thread as the job is submitted, while the worker thread still loads the engine.
    expect(events[0]).toMatchObject({ progress: 0, stage: 'start' });
    for (let i = 1; i < events.length; i++) expect(events[i]!.progress).toBeGreaterThanOrEqual(events[i - 1]!.progress);
    expect(events.at(-1)!.progress).toBe(1);
    // Said often enough: at most a second of the worker thread's own CPU time between two of its words.
    const { words, gapMs } = largestCpuGap(events);
    expect(words).toBeGreaterThan(5);
    expect(gapMs).toBeLessThan(1000);
    // The work ran on the worker, not on the calling thread: that thread's own CPU time over the job stays a small part
    // of the job's time (run inline, the master's DSP puts most of it there). CPU time does not grow with the machine's
    // load, where the lag of a timer does, so the caller's timer is only asked to have run.
    const callerCpuMs = (cpu.user + cpu.system) / 1000;
    expect(callerCpuMs).toBeLessThan(elapsedMs / 4);
    expect(ticks).toBeGreaterThan(5);
  }, 60_000);

  it('cancels within a second and leaves no file behind', async () => {
    const outDir = file('cancelled');
    const controller = new AbortController();
    let abortedAt = 0;
    const run = runJob(
      { kind: 'master', input: file('long.wav'), outDir },
      {
        signal: controller.signal,
        onProgress: (e) => {
          if (e.progress > 0.3 && !abortedAt) {
            abortedAt = performance.now();
            controller.abort();
          }
        },
      },
    );
    await expect(run).rejects.toMatchObject({ code: 'ENGINE.CANCELLED' });
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expect(existsSync(outDir) ? readdirSync(outDir) : []).toEqual([]);
  }, 60_000);

  it('passes typed errors across the thread boundary', async () => {
    await expect(runJob({ kind: 'analyze', input: file('missing.wav') })).rejects.toMatchObject({
      code: 'ENGINE.INPUT_NOT_FOUND',
    });
    await expect(
      runJob({
        kind: 'enhance',
        input: file('short.wav'),
        outDir: file('x'),
        options: { preset: 'karaoke' as 'voice' },
      }),
    ).rejects.toMatchObject({ code: 'ENGINE.INVALID_OPTIONS' });
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      runJob({ kind: 'analyze', input: file('short.wav') }, { signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'ENGINE.CANCELLED',
    });
  });
});

describe('command line', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(ENGINE_DIST, 'cli.js'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });

  it('analyze prints the analysis as JSON on stdout, resolving paths against INIT_CWD', () => {
    const r = cli(['analyze', 'short.wav', '--quiet'], { INIT_CWD: tmp.dir });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { analysis: { integratedLufs: number; spectrum: { bandsHz: number[] } } };
    expect(out.analysis.integratedLufs).toBeLessThan(-15);
    expect(out.analysis.spectrum.bandsHz).toHaveLength(30);
  });

  it('master writes the four outputs and prints their paths', () => {
    const r = cli(['master', file('short.wav'), file('cli-master'), '--target', '-16', '--style', 'pop', '--quiet']);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as {
      outputs: Record<string, string>;
      report: { settings: { targetLufs: number } };
    };
    expect(Object.keys(out.outputs).sort()).toEqual(['master44', 'master48', 'preview', 'report']);
    expect(out.report.settings.targetLufs).toBe(-16);
    expect(readdirSync(file('cli-master')).sort()).toEqual([
      'master_44100_16.wav',
      'master_48000_24.wav',
      'preview.mp3',
      'report.json',
    ]);
  });

  it('exits 1 with a JSON error for engine errors and 2 for usage errors', () => {
    const missing = cli(['analyze', file('nope.wav'), '--quiet']);
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'ENGINE.INPUT_NOT_FOUND' } });
    const usage = cli(['enhance', file('short.wav'), file('y')]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--preset');
  });
});
