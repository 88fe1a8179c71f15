import { ProjectionRunner } from '@kora/kernel';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { runProjectionsCli } from '../../src/cli/projections-cli';
import { libraryHistory, libraryProjection } from '../support/sample-projection';
import { type EmbeddedStores, embeddedStores } from '../support/stores';
import { tempDir } from '../support/temp';

describe('npm run projections', () => {
  let stores: EmbeddedStores;
  let out: string[];
  let progress: string;
  let io: Parameters<typeof runProjectionsCli>[2];
  beforeEach(async () => {
    stores = embeddedStores();
    for (const [key, event] of libraryHistory(400)) await stores.events.append(`lib-${key}`, [event], 'any');
    out = [];
    progress = '';
    const err = new PassThrough();
    err.on('data', (chunk: Buffer) => (progress += chunk.toString()));
    io = { out: (line) => out.push(line), err };
  });
  afterEach(() => stores.close());

  const runner = () => new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 100 });

  it('prints each projection with its checkpoint, head and lag', async () => {
    expect(await runProjectionsCli(['status'], runner(), io)).toBe(0);
    expect(out[0]!.split('\n')[0]).toMatch(/^projection\s+version\s+stored\s+position\s+head\s+lag\s+state$/);
    expect(out[0]!.split('\n')[2]).toMatch(/^library-items\s+1\s+-\s+0\s+400\s+400\s+behind$/);
  });

  it('rebuilds one projection with a progress bar and a final count, then reports it up to date', async () => {
    expect(await runProjectionsCli(['rebuild', 'library-items'], runner(), io)).toBe(0);
    expect(out.at(-1)).toMatch(/^Rebuilt library-items: 400 events applied, \d+ documents, position 400, in [\d.]+ s/);
    expect(progress).toContain('library-items');
    expect(progress).toContain('100%');
    out = [];
    await runProjectionsCli(['status'], runner(), io);
    expect(out[0]).toMatch(/library-items\s+1\s+1\s+400\s+400\s+0\s+up to date/);
  });

  it('rebuilds every projection with --all and refuses an unknown name', async () => {
    expect(await runProjectionsCli(['rebuild', '--all'], runner(), io)).toBe(0);
    expect(out.at(-1)).toBe('Rebuilt 1 projection(s), 400 events applied in all.');
    expect(await runProjectionsCli(['rebuild', 'nope'], runner(), io)).toBe(2);
    expect(out.at(-1)).toBe('Unknown projection: nope. Known: library-items');
    expect(await runProjectionsCli(['frobnicate'], runner(), io)).toBe(2);
    expect(out.at(-1)).toContain('Usage:');
  });

  it('runs as a command on the embedded store of DATA_DIR', () => {
    const dir = tempDir();
    try {
      const output = execFileSync(
        process.execPath,
        [join(__dirname, '..', '..', 'dist', 'cli', 'projections.js'), 'status'],
        {
          env: { PATH: process.env.PATH, DATA_DIR: dir.path },
          encoding: 'utf8',
        },
      );
      expect(output.trim().length).toBeGreaterThan(0);
    } finally {
      dir.cleanup();
    }
  });
});
