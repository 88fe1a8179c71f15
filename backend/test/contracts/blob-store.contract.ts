import { type BlobStore, BlobNotFoundError } from '@kora/kernel';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tempDir, unique } from '../support/temp';

export interface BlobStoreFixture {
  store: BlobStore;
  close(): Promise<void>;
}

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The behaviour every blob store adapter must have. */
export function blobStoreContract(
  name: string,
  open: () => Promise<BlobStoreFixture>,
  options: { skip?: boolean } = {},
): void {
  ((options.skip ?? false) ? describe.skip : describe)(`BlobStore contract: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;
    const scratch = tempDir();
    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture?.close();
      scratch.cleanup();
    });

    it('stores a stream and reads it back whole and by byte range', async () => {
      const key = `${unique('t')}/original`;
      const payload = randomBytes(300_000);
      expect(
        await store.put(key, Readable.from([payload.subarray(0, 100_000), payload.subarray(100_000)]), 'audio/wav'),
      ).toEqual({
        size: 300_000,
        contentType: 'audio/wav',
      });
      expect(await store.stat(key)).toEqual({ size: 300_000, contentType: 'audio/wav' });
      expect((await bytes(await store.read(key))).equals(payload)).toBe(true);
      expect(
        (await bytes(await store.read(key, { start: 1_000, end: 1_999 }))).equals(payload.subarray(1_000, 2_000)),
      ).toBe(true);
    });

    it('leaves nothing behind when the source fails midway', async () => {
      const key = `${unique('t')}/broken`;
      const failing = new Readable({
        read() {
          this.push(randomBytes(10_000));
          this.destroy(new Error('connection reset'));
        },
      });
      await expect(store.put(key, failing, 'audio/wav')).rejects.toThrow('connection reset');
      expect(await store.stat(key)).toBeNull();
      await expect(store.read(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('replaces a blob atomically and stores a local file', async () => {
      const key = `${unique('t')}/report`;
      await store.put(key, Readable.from([Buffer.from('first')]), 'application/json');
      await store.put(key, Readable.from([Buffer.from('second version')]), 'application/json');
      expect(await text(await store.read(key))).toBe('second version');
      const file = join(scratch.path, 'local.bin');
      writeFileSync(file, 'from disk');
      await store.putFile(`${unique('t')}/copy`, file, 'text/plain').then(async (info) => expect(info.size).toBe(9));
    });

    it('lists every complete blob under a prefix once, with its size and type, and never a write in progress', async () => {
      const prefix = unique('l');
      await store.put(`${prefix}/a/original`, Readable.from([Buffer.from('12345')]), 'audio/wav');
      await store.put(`${prefix}/a/preview`, Readable.from([Buffer.from('123')]), 'audio/mpeg');
      await store.put(`${prefix}/b/report`, Readable.from([Buffer.from('{}')]), 'application/json');
      await store.put(`${prefix}/b/report`, Readable.from([Buffer.from('{"v":2}')]), 'application/json');
      const slow = new Readable({ read() {} });
      slow.push(Buffer.from('partial'));
      const writing = store.put(`${prefix}/c/original`, slow, 'audio/wav');
      // The write has begun once the store has taken the first bytes off the source.
      while (slow.readableLength > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const listed = [];
      for await (const entry of store.list(prefix)) listed.push(entry);
      expect(listed.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
        { key: `${prefix}/a/original`, size: 5, contentType: 'audio/wav' },
        { key: `${prefix}/a/preview`, size: 3, contentType: 'audio/mpeg' },
        { key: `${prefix}/b/report`, size: 7, contentType: 'application/json' },
      ]);
      slow.push(null);
      await writing;
      const all = [];
      for await (const entry of store.list()) all.push(entry.key);
      expect(all).toContain(`${prefix}/c/original`);
      expect(all.filter((key) => key.startsWith(`${prefix}/`))).toHaveLength(4);
    });

    it('hands out a local path to the bytes', async () => {
      const key = `${unique('t')}/preview`;
      await store.put(key, Readable.from([Buffer.from('mp3 bytes')]), 'audio/mpeg');
      expect(await store.withLocalFile(key, async (path) => readFileSync(path, 'utf8'))).toBe('mp3 bytes');
    });

    it('deletes one blob, or every blob under a prefix', async () => {
      const prefix = unique('u');
      await store.put(`${prefix}/a/original`, Readable.from([Buffer.from('a')]), 'audio/wav');
      await store.put(`${prefix}/a/preview`, Readable.from([Buffer.from('b')]), 'audio/mpeg');
      await store.put(`${prefix}/b/original`, Readable.from([Buffer.from('c')]), 'audio/wav');
      await store.delete(`${prefix}/b/original`);
      expect(await store.stat(`${prefix}/b/original`)).toBeNull();
      expect(await store.deletePrefix(`${prefix}/a`)).toBe(2);
      expect(await store.stat(`${prefix}/a/preview`)).toBeNull();
      expect(await store.deletePrefix(`${prefix}/nothing`)).toBe(0);
    });

    it('refuses keys that could escape the store', async () => {
      await expect(store.put('../etc/passwd', Readable.from([Buffer.from('x')]), 'text/plain')).rejects.toThrow(
        /Invalid blob key/,
      );
      await expect(store.stat('a/../../b')).rejects.toThrow(/Invalid blob key/);
    });
  });
}
