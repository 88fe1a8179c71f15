import { EventStore, scratchPrefix } from '@kora/kernel';
import { ResumableUploads } from '@kora/kernel/nest';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { loadConfig } from '../../src/config/config';
import { OrphanSweeper } from '../../src/infra/orphan-sweeper';
import { tempDir } from '../support/temp';

const HOUR = 60 * 60 * 1000;

function plant(path: string, ageMs: number, content = 'x'): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  age(path, ageMs);
}

function age(path: string, ageMs: number): void {
  const when = new Date(Date.now() - ageMs);
  utimesSync(path, when, when);
}

describe('the orphan sweep', () => {
  let data: ReturnType<typeof tempDir>;
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    data = tempDir();
    tmp = tempDir();
    // The temp dir the sweep looks in, as TMPDIR would set it. Not through TMPDIR: os.tmpdir() reads Node's own
    // process.env, and under Jest a test file sees a copy of it (setting it here, the sweep went through /tmp).
    jest.spyOn(os, 'tmpdir').mockReturnValue(tmp.path);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    data.cleanup();
    tmp.cleanup();
  });

  const sweeper = (recordedStreams: string[]): OrphanSweeper => {
    const events = {
      readStream: async (name: string) =>
        recordedStreams
          .filter((stream) => stream.split(' ')[0] === name)
          .map((stream) => ({ data: { trackId: stream.split(' ')[1] } })),
    } as unknown as EventStore;
    const config = loadConfig({ DATA_DIR: data.path, SWEEP_MIN_AGE_SECONDS: '3600' });
    const uploads = new ResumableUploads({ dir: join(data.path, 'uploads') });
    return new OrphanSweeper(config, pino({ level: 'silent' }), events, uploads);
  };

  it('takes what interrupted work left once old enough, and nothing anyone may still be using', async () => {
    const blobs = join(data.path, 'blobs');
    // Old leftovers of a crash.
    // In a recorded track's folder: a result write the crash cut short, and a sidecar whose blob never landed.
    plant(join(blobs, 'tracks', 'kept', 'master.partial-0123456789ab'), 2 * HOUR, 'half');
    plant(join(blobs, 'tracks', 'kept', 'preview.type'), 2 * HOUR);
    // A recorded track whose only file was a partial: the folder goes once emptied.
    plant(join(blobs, 'tracks', 'recorded', 'stems', 'vocals.partial-0123456789ab'), 2 * HOUR, 'half');
    mkdirSync(join(blobs, 'tracks', 'empty'), { recursive: true });
    age(join(blobs, 'tracks', 'empty'), 2 * HOUR);
    plant(join(blobs, 'tracks', 'unrecorded', 'original'), 2 * HOUR); // the file landed, the event did not
    plant(join(blobs, 'mixes', 'session', 'gone-track', 'original'), 2 * HOUR);
    // What must stay: a recorded track, a recorded mix track, a write in progress, a fresh folder.
    plant(join(blobs, 'tracks', 'kept', 'original'), 2 * HOUR);
    plant(join(blobs, 'tracks', 'kept', 'original.type'), 2 * HOUR);
    plant(join(blobs, 'mixes', 'session', 'kept-track', 'original'), 2 * HOUR);
    plant(join(blobs, 'tracks', 'uploading', 'original.partial-ba9876543210'), 0);
    mkdirSync(join(blobs, 'tracks', 'fresh'), { recursive: true });
    for (const folder of ['unrecorded', 'kept', 'recorded/stems', 'recorded'])
      age(join(blobs, 'tracks', folder), 2 * HOUR);
    age(join(blobs, 'mixes', 'session', 'gone-track'), 2 * HOUR);
    // Scratch folders: one of a process that is gone, ours (alive), a legacy name a day old, a legacy name fresh.
    const dead = join(tmp.path, `${scratchPrefix('job').replace(`-${process.pid}-`, '-999999-')}AbCdEf`);
    const mine = join(tmp.path, `${scratchPrefix('job')}AbCdEf`);
    const legacyOld = join(tmp.path, 'kora-demo-AbCdEf');
    const legacyFresh = join(tmp.path, 'kora-job-ZyXwVu');
    for (const path of [dead, mine, legacyOld, legacyFresh]) plant(join(path, 'work.wav'), 0);
    age(legacyOld, 25 * HOUR);

    const report = await sweeper(['track-kept', 'track-recorded', 'mix-session kept-track']).sweep();

    expect(report).toMatchObject({ partials: 2, sidecars: 1, unrecorded: 3, scratch: 2 });
    for (const gone of [
      'tracks/kept/master.partial-0123456789ab',
      'tracks/kept/preview.type',
      'tracks/recorded',
      'tracks/empty',
      'tracks/unrecorded',
      'mixes/session/gone-track',
    ]) {
      expect({ gone, exists: existsSync(join(blobs, gone)) }).toEqual({ gone, exists: false });
    }
    for (const kept of [
      'tracks/kept/original',
      'tracks/kept/original.type',
      'mixes/session/kept-track/original',
      'tracks/uploading/original.partial-ba9876543210',
      'tracks/fresh',
    ]) {
      expect({ kept, exists: existsSync(join(blobs, kept)) }).toEqual({ kept, exists: true });
    }
    expect([dead, mine, legacyOld, legacyFresh].map(existsSync)).toEqual([false, true, false, true]);
  });
});
