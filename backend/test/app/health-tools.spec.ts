import { afterAll, describe, expect, it } from '@jest/globals';
import type { EventStore, ReadStore } from '@kora/kernel';
import { chmodSync, mkdirSync, readFileSync, stat, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { HealthService, logTools } from '../../src/health/health.service';
import { tempDir } from '../support/temp';

/**
 * A fake ffmpeg whose `-version` answers at once on its first run, hangs on its second (past the check's 2 s), and
 * fails on its third: a busy machine is not a broken binary, a failing binary is.
 */
function fakeTool(dir: string, tool: string, version = '9.9-test', firstRunSleep = 0): string {
  const path = join(dir, tool);
  const count = join(dir, `${tool}.runs`);
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `n=$(cat "${count}" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "${count}"`,
      `if [ "$n" = 1 ]; then sleep ${firstRunSleep}; fi`,
      'if [ "$n" = 2 ]; then sleep 5; fi',
      'if [ "$n" -ge 3 ]; then exit 1; fi',
      `echo "${tool} version ${version} Copyright (c) the testers"`,
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

/** The health checks over stores that answer at once (the log's head by `headPosition`, 0 unless given). */
function healthOf(
  config: ReturnType<typeof loadConfig>,
  headPosition: () => Promise<number> = async () => 0,
): HealthService {
  const events = { kind: 'sqlite', ping: async () => undefined, headPosition } as unknown as EventStore;
  const reads = { kind: 'sqlite', ping: async () => undefined } as unknown as ReadStore;
  return new HealthService(events, reads, config);
}

describe('the ffmpeg and ffprobe health checks', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  // First in the file: the tools' last good answers are kept per process, and this one needs none yet.
  it('give a first -version run longer than a re-check, and one run at a time for checks that arrive together', async () => {
    const own = join(dir.path, 'slow-first');
    mkdirSync(own);
    const config = loadConfig({
      DATA_DIR: join(own, 'data'),
      // 3 s on its first run: past a re-check's 2 s, within a first run's time.
      FFMPEG_PATH: fakeTool(own, 'ffmpeg', '9.7-slow', 3),
      FFPROBE_PATH: fakeTool(own, 'ffprobe', '9.7-slow', 3),
    });
    const health = healthOf(config);
    const [first, second] = await Promise.all([health.report(), health.report()]);
    expect(first).toMatchObject({ status: 'ok', failing: [] });
    expect(first.checks.ffmpeg).toMatchObject({ status: 'up', version: '9.7-slow' });
    expect(second.checks.ffmpeg).toEqual(first.checks.ffmpeg);
    expect(readFileSync(join(own, 'ffmpeg.runs'), 'utf8').trim()).toBe('1');
  }, 30_000);

  it('keep the last good answer when -version only misses its time, and report a failing binary down', async () => {
    const config = loadConfig({
      DATA_DIR: join(dir.path, 'data'),
      FFMPEG_PATH: fakeTool(dir.path, 'ffmpeg'),
      FFPROBE_PATH: fakeTool(dir.path, 'ffprobe'),
    });
    const health = healthOf(config);
    const expire = () => (health as unknown as { tools: Map<string, unknown> }).tools.clear();

    const first = await health.report();
    expect(first.status).toBe('ok');
    expect(first.checks.ffmpeg).toMatchObject({ status: 'up', version: '9.9-test' });

    expire();
    const busy = await health.report();
    expect(busy).toMatchObject({ status: 'ok', failing: [] });
    expect(busy.checks.ffmpeg).toMatchObject({ status: 'up', version: '9.9-test' });

    expire();
    const broken = await health.report();
    expect(broken).toMatchObject({ status: 'degraded', failing: ['ffmpeg', 'ffprobe'] });
    expect(broken.checks.ffmpeg).toMatchObject({ status: 'down' });
  }, 30_000);

  it('keep the start-up answer when the first check misses its time (a server busy from its start)', async () => {
    const own = join(dir.path, 'busy-from-start');
    mkdirSync(own);
    const config = loadConfig({
      DATA_DIR: join(own, 'data'),
      FFMPEG_PATH: fakeTool(own, 'ffmpeg', '9.8-start'),
      FFPROBE_PATH: fakeTool(own, 'ffprobe', '9.8-start'),
    });
    await logTools(config, { info: () => undefined, error: () => undefined });
    // The first check's `-version` hangs past its time: the start-up log's answer stands.
    const first = await healthOf(config).report();
    expect(first).toMatchObject({ status: 'ok', failing: [] });
    expect(first.checks.ffmpeg).toMatchObject({ status: 'up', version: '9.8-start' });
  }, 30_000);

  it('count a store answer that arrived while the event loop was held, rather than timing it out', async () => {
    const own = join(dir.path, 'held-loop');
    mkdirSync(own);
    const config = loadConfig({
      DATA_DIR: join(own, 'data'),
      FFMPEG_PATH: fakeTool(own, 'ffmpeg'),
      FFPROBE_PATH: fakeTool(own, 'ffprobe'),
    });
    // The log's head is answered by I/O (as a durable store's is), and arrives while the loop is held for 2.5 s.
    const answer = healthOf(config, () => new Promise<number>((resolve) => stat(own, () => resolve(7)))).report();
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => process.nextTick(resolve));
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      // held, as by a long synchronous task
    }
    expect((await answer).checks.eventStore).toMatchObject({ status: 'up', head: 7 });
  }, 30_000);
});
