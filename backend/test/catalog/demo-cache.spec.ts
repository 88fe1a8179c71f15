import { DemoCache, DemoLibrary } from '@kora/catalog';
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalBlobStore } from '../../src/infra/blobs/local-blob-store';
import { embeddedStores, type EmbeddedStores } from '../support/stores';
import { tempDir } from '../support/temp';

const SEED = 7;
const ENTRY = `v2-seed${SEED}`;

/**
 * The shared demo cache (`DEMO_CACHE_DIR`). What goes into it is the material a library made (the demo-tracks spec and
 * every browser run make it for real); these tests use small stand-in blobs so that no engine job runs here.
 */
describe('demo material shared between installations', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function installation(): { blobs: LocalBlobStore; stores: EmbeddedStores } {
    const dir = tempDir('kora-demo-cache-');
    const stores = embeddedStores();
    cleanups.push(() => stores.close(), dir.cleanup);
    return { blobs: new LocalBlobStore(join(dir.path, 'blobs')), stores };
  }

  function cacheRoot(): string {
    const dir = tempDir('kora-demo-cache-root-');
    cleanups.push(dir.cleanup);
    return dir.path;
  }

  async function putText(blobs: LocalBlobStore, key: string, text: string, type: string): Promise<void> {
    await blobs.put(key, Readable.from([Buffer.from(text)]), type);
  }

  const demos = { AI_MASTERING: { filename: 'made by the first installation' } };
  const stored = [
    { key: 'demo/v2/mastering/master', contentType: 'audio/wav' },
    { key: 'demo/v2/mastering/report', contentType: 'application/json' },
  ];

  async function firstInstallationKeeps(root: string): Promise<void> {
    const { blobs } = installation();
    await putText(blobs, stored[0]!.key, 'RIFF master bytes', 'audio/wav');
    await putText(blobs, stored[1]!.key, '{"lufs":-9}', 'application/json');
    await new DemoCache(root, ENTRY).save(blobs, demos, stored);
  }

  it('a second installation copies what the first kept, blob for blob, instead of making it', async () => {
    const root = cacheRoot();
    await firstInstallationKeeps(root);
    // Only the finished entry is left: no staging folder beside it.
    expect(readdirSync(root)).toEqual([ENTRY]);

    const second = installation();
    const library = new DemoLibrary(second.blobs, second.stores.reads, SEED, null, root);
    // The library hands out what the cache holds (a generated library would name its own files).
    expect(await library.demos()).toEqual(demos);
    const read = async (key: string): Promise<string> => {
      const chunks: Buffer[] = [];
      for await (const chunk of await second.blobs.read(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString();
    };
    expect(await read(stored[0]!.key)).toBe('RIFF master bytes');
    expect(await read(stored[1]!.key)).toBe('{"lufs":-9}');
    expect(await second.blobs.stat(stored[1]!.key)).toMatchObject({ contentType: 'application/json' });
    // The cached files stay for the next installation (they were copied, not moved).
    expect(readdirSync(join(root, ENTRY)).sort()).toEqual(['0', '1', 'manifest.json']);
  });

  it('an entry missing a file, or unreadable, is not used', async () => {
    const root = cacheRoot();
    await firstInstallationKeeps(root);
    rmSync(join(root, ENTRY, '1'));
    expect(await new DemoCache(root, ENTRY).restore(installation().blobs)).toBeNull();

    writeFileSync(join(root, ENTRY, 'manifest.json'), '{"demos":');
    expect(await new DemoCache(root, ENTRY).restore(installation().blobs)).toBeNull();
    expect(await new DemoCache(cacheRoot(), ENTRY).restore(installation().blobs)).toBeNull();
  });

  it('keeps the entry already there when two installations finish together', async () => {
    const root = cacheRoot();
    await firstInstallationKeeps(root);
    const { blobs } = installation();
    await putText(blobs, stored[0]!.key, 'another master', 'audio/wav');
    await putText(blobs, stored[1]!.key, '{}', 'application/json');
    await new DemoCache(root, ENTRY).save(blobs, { AI_MASTERING: { filename: 'late' } }, stored);
    expect(readdirSync(root)).toEqual([ENTRY]);
    expect(JSON.parse(readFileSync(join(root, ENTRY, 'manifest.json'), 'utf8')).demos).toEqual(demos);
  });

  it('a blob that cannot be read leaves no entry behind', async () => {
    const root = join(cacheRoot(), 'nested', 'cache');
    const { blobs } = installation();
    await putText(blobs, stored[0]!.key, 'RIFF', 'audio/wav');
    await expect(new DemoCache(root, ENTRY).save(blobs, demos, stored)).rejects.toThrow();
    expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
  });
});
