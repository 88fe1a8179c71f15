import { BlobStore, scratchPrefix } from '@kora/kernel';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A blob of the demo material, as the library stored it. */
export interface StoredBlob {
  readonly key: string;
  readonly contentType: string;
}

interface Manifest<T> {
  readonly demos: T;
  readonly blobs: readonly StoredBlob[];
}

/**
 * The demo material kept in a folder outside one installation (`DEMO_CACHE_DIR`), so installations sharing a machine
 * (a test run's servers, several local servers) make it once: the first one stores it there, the next ones copy it
 * into their blob store instead of running four engine jobs (about 13 s of CPU). One entry per demo version and seed,
 * the same rule as the blob store's `demo/<version>/` (bump the version to make it again). An entry appears whole or
 * not at all (written aside, then renamed); a missing or unreadable entry is simply not used.
 */
export class DemoCache<T> {
  constructor(
    private readonly root: string,
    private readonly entry: string,
  ) {}

  private get dir(): string {
    return join(this.root, this.entry);
  }

  /** Copies the cached material into `blobs`; null when there is none (or it cannot be read whole). */
  async restore(blobs: BlobStore): Promise<T | null> {
    let manifest: Manifest<T>;
    try {
      manifest = JSON.parse(await readFile(join(this.dir, 'manifest.json'), 'utf8')) as Manifest<T>;
    } catch {
      return null;
    }
    const scratch = await mkdtemp(join(tmpdir(), scratchPrefix('demo')));
    try {
      for (const [index, blob] of manifest.blobs.entries()) {
        // putFile moves what it is given: the cached file is copied first.
        const copy = join(scratch, String(index));
        await copyFile(join(this.dir, String(index)), copy);
        await blobs.putFile(blob.key, copy, blob.contentType);
      }
      return manifest.demos;
    } catch {
      return null;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Keeps `demos` and the blobs they point at; an entry already there (another installation's) is left as it is. */
  async save(blobs: BlobStore, demos: T, stored: readonly StoredBlob[]): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const staging = await mkdtemp(join(this.root, `.${this.entry}-`));
    try {
      for (const [index, blob] of stored.entries()) {
        await blobs.withLocalFile(blob.key, (path) => copyFile(path, join(staging, String(index))));
      }
      const manifest: Manifest<T> = { demos, blobs: stored };
      await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest));
      await rename(staging, this.dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
}
