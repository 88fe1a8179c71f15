import {
  assertBlobKey,
  type BlobEntry,
  type BlobInfo,
  BlobNotFoundError,
  BlobStore,
  type ByteRange,
  isStorageFull,
  StorageFullError,
} from '@kora/kernel';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** fsync: the file's data (or a directory's entries) on the disk, not only in the page cache. */
async function flush(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Blobs as files under a directory: `<root>/<key>` plus `<key>.type` for the content type. A write goes to a
 * temporary name in the same directory and is renamed into place once complete, so readers never see half a file.
 * The file's data is flushed to the disk before the rename and the directory after it: once `put` resolves, the blob
 * survives a power cut, so an event recorded after it never names a file that is gone.
 */
export class LocalBlobStore extends BlobStore {
  readonly kind = 'local';

  constructor(readonly root: string) {
    super();
  }

  private path(key: string): string {
    assertBlobKey(key);
    return join(this.root, ...key.split('/'));
  }

  private async commit(
    key: string,
    write: (temporary: string) => Promise<void>,
    contentType: string,
  ): Promise<BlobInfo> {
    const target = this.path(key);
    const temporary = `${target}.partial-${randomBytes(6).toString('hex')}`;
    let typeWritten = false;
    try {
      await mkdir(dirname(target), { recursive: true });
      await write(temporary);
      await flush(temporary);
      await writeFile(`${target}.type`, contentType);
      typeWritten = true;
      await rename(temporary, target);
      await flush(dirname(target));
    } catch (error) {
      await rm(temporary, { force: true });
      // A sidecar written for a blob that never landed would be an orphan.
      if (typeWritten || isStorageFull(error)) {
        if (!(await exists(target))) await rm(`${target}.type`, { force: true });
      }
      throw isStorageFull(error) ? new StorageFullError() : error;
    }
    return { size: (await stat(target)).size, contentType };
  }

  put(key: string, source: Readable, contentType: string, signal?: AbortSignal): Promise<BlobInfo> {
    return this.commit(key, (temporary) => pipeline(source, createWriteStream(temporary), { signal }), contentType);
  }

  putFile(key: string, path: string, contentType: string): Promise<BlobInfo> {
    return this.commit(
      key,
      async (temporary) => {
        try {
          await rename(path, temporary);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
          await copyFile(path, temporary);
          await unlink(path);
        }
      },
      contentType,
    );
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const file = await stat(this.path(key));
      const contentType = await readFile(`${this.path(key)}.type`, 'utf8').catch(() => 'application/octet-stream');
      return { size: file.size, contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    if (!(await this.stat(key))) throw new BlobNotFoundError(key);
    return createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
  }

  async withLocalFile<R>(key: string, work: (path: string) => Promise<R>): Promise<R> {
    if (!(await this.stat(key))) throw new BlobNotFoundError(key);
    return work(this.path(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
    await rm(`${this.path(key)}.type`, { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const directory = this.path(prefix);
    let count = 0;
    for await (const _ of this.blobFiles(directory)) count += 1;
    await rm(directory, { recursive: true, force: true });
    return count;
  }

  async *list(prefix?: string): AsyncIterable<BlobEntry> {
    for await (const path of this.blobFiles(prefix ? this.path(prefix) : this.root)) {
      const key = relative(this.root, path).split(sep).join('/');
      const info = await this.stat(key);
      if (info) yield { key, ...info };
    }
  }

  /** The blob files under a directory: not the `.type` sidecars, not writes in progress. */
  private async *blobFiles(directory: string): AsyncGenerator<string> {
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) yield* this.blobFiles(path);
      else if (!entry.name.endsWith('.type') && !entry.name.includes('.partial-')) yield path;
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
