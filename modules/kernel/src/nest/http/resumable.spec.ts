import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { UploadNotFoundError } from '../../upload-errors';
import { ResumableUploads } from './resumable';

const HOUR = 60 * 60 * 1000;

describe('ResumableUploads', () => {
  let dir: string;
  let now: number;
  let uploads: ResumableUploads;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kora-resumable-'));
    now = Date.UTC(2026, 10, 27, 12);
    uploads = new ResumableUploads({ dir, ttlMs: 24 * HOUR, maxPendingPerOwner: 3, now: () => now });
    uploads.registerPurpose('note', { largest: 1000, limits: () => ({ min: 1, max: 1000 }) });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('expires a partial upload a day after its last byte, and the sweep removes its files', async () => {
    const upload = await uploads.create('ann', 10, { purpose: 'note' });
    now += 20 * HOUR;
    await uploads.append('ann', upload.id, 0, Readable.from([Buffer.from('hello')]));
    now += 20 * HOUR;
    // 40 hours after its creation, 20 after its last byte: still there.
    expect(await uploads.sweep()).toBe(0);
    expect((await uploads.status('ann', upload.id)).offset).toBe(5);
    now += 5 * HOUR;
    await expect(uploads.status('ann', upload.id)).rejects.toBeInstanceOf(UploadNotFoundError);
    expect(await uploads.sweep()).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps a few unfinished uploads per account: one more drops the oldest idle one', async () => {
    const first = await uploads.create('ann', 10, { purpose: 'note' });
    now += 1000;
    const second = await uploads.create('ann', 10, { purpose: 'note' });
    now += 1000;
    await uploads.create('ann', 10, { purpose: 'note' });
    await uploads.create('bob', 10, { purpose: 'note' });
    now += 1000;
    await uploads.create('ann', 10, { purpose: 'note' });
    await expect(uploads.status('ann', first.id)).rejects.toBeInstanceOf(UploadNotFoundError);
    expect((await uploads.status('ann', second.id)).offset).toBe(0);
  });

  it('finds what a restarted process left, and hands a whole upload over once', async () => {
    const upload = await uploads.create('ann', 5, { purpose: 'note', filename: 'a.txt' });
    await uploads.append('ann', upload.id, 0, Readable.from([Buffer.from('hel'), Buffer.from('lo')]));
    const restarted = new ResumableUploads({ dir, now: () => now });
    restarted.registerPurpose('note', { largest: 1000, limits: () => ({ min: 1, max: 1000 }) });
    const claimed = await restarted.claim('ann', upload.id, ['note']);
    expect(claimed).toMatchObject({ length: 5, filename: 'a.txt' });
    await expect(restarted.claim('ann', upload.id, ['note'])).rejects.toBeInstanceOf(UploadNotFoundError);
    await claimed.discard();
    expect(readdirSync(dir)).toEqual([]);
  });
});
