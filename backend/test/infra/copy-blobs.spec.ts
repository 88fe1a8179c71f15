import { type BlobStore } from '@kora/kernel';
import { MongoClient } from 'mongodb';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { copyBlobs } from '../../src/cli/copy-blobs';
import { GridFsBlobStore } from '../../src/infra/blobs/gridfs-blob-store';
import { LocalBlobStore } from '../../src/infra/blobs/local-blob-store';
import { tempDir } from '../support/temp';

const COMMAND = join(__dirname, '..', '..', 'dist', 'cli', 'copy-blobs-command.js');

const BLOBS = [
  { key: 'tracks/0190c2a4-0000-7000-8000-000000000001/original', bytes: randomBytes(200_000), type: 'audio/wav' },
  { key: 'tracks/0190c2a4-0000-7000-8000-000000000001/preview', bytes: randomBytes(30_000), type: 'audio/mpeg' },
  {
    key: 'mixes/0190c2a4-0000-7000-8000-000000000002/report',
    bytes: Buffer.from('{"ok":true}'),
    type: 'application/json',
  },
];

async function contents(store: BlobStore): Promise<Array<{ key: string; type: string; bytes: Buffer }>> {
  const found = [];
  for await (const blob of store.list()) {
    found.push({ key: blob.key, type: blob.contentType, bytes: await buffer(await store.read(blob.key)) });
  }
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

const expected = () =>
  BLOBS.map(({ key, bytes, type }) => ({ key, type, bytes })).sort((a, b) => a.key.localeCompare(b.key));

describe('copying the embedded files to another blob store', () => {
  let data: ReturnType<typeof tempDir>;
  let elsewhere: ReturnType<typeof tempDir>;
  let source: LocalBlobStore;
  beforeEach(async () => {
    data = tempDir();
    elsewhere = tempDir();
    source = new LocalBlobStore(join(data.path, 'blobs'));
    for (const blob of BLOBS) await source.put(blob.key, Readable.from([blob.bytes]), blob.type);
  });
  afterEach(() => {
    data.cleanup();
    elsewhere.cleanup();
  });

  it('copies every blob with its key, bytes and content type, and skips them on a second run', async () => {
    const target = new LocalBlobStore(elsewhere.path);
    expect(await copyBlobs(source, target)).toEqual({ copied: 3, skipped: 0, bytes: 230_011 });
    expect(await contents(target)).toEqual(expected());
    expect(await copyBlobs(source, target)).toEqual({ copied: 0, skipped: 3, bytes: 0 });
  });

  it('finishes an interrupted copy: a blob left different on the target is written again', async () => {
    const target = new LocalBlobStore(elsewhere.path);
    await target.put(BLOBS[0]!.key, Readable.from([BLOBS[0]!.bytes.subarray(0, 1_000)]), 'audio/wav');
    await target.put(BLOBS[1]!.key, Readable.from([BLOBS[1]!.bytes]), 'audio/mpeg');
    expect(await copyBlobs(source, target)).toEqual({ copied: 2, skipped: 1, bytes: 200_011 });
    expect(await contents(target)).toEqual(expected());
  });

  it('runs as `npm run copy-blobs -- --to local:<dir>` on DATA_DIR, and explains itself without a target', () => {
    const env = { PATH: process.env.PATH, DATA_DIR: data.path };
    const output = execFileSync(process.execPath, [COMMAND, '--to', `local:${elsewhere.path}`], {
      env,
      encoding: 'utf8',
    });
    expect(output).toContain('Copied 3 blobs (0.2 MB); 0 were already there.');
    const usage = spawnSync(process.execPath, [COMMAND], { env, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stdout).toContain('Usage: npm run copy-blobs -- --to');
  });

  const mongoUrl = process.env.MONGODB_URL ?? '';
  (mongoUrl === '' ? it.skip : it)('copies into GridFS (MONGODB_URL)', async () => {
    const client = await new MongoClient(mongoUrl).connect();
    try {
      const target = new GridFsBlobStore(client);
      for (const blob of BLOBS) await target.delete(blob.key);
      await copyBlobs(source, target);
      const copied = (await contents(target)).filter((blob) => BLOBS.some((b) => b.key === blob.key));
      expect(copied).toEqual(expected());
    } finally {
      await client.close();
    }
  });
});
