import {
  assertBlobKey,
  type BlobEntry,
  type BlobInfo,
  BlobNotFoundError,
  BlobStore,
  type ByteRange,
  escapeRegExp,
  scratchPrefix,
} from '@kora/kernel';
import { GridFSBucket, type MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

interface FileDoc {
  _id: unknown;
  filename: string;
  length: number;
  metadata?: { contentType?: string; complete?: boolean };
}

/**
 * Blobs in MongoDB GridFS (`BLOB_STORE=gridfs` with `MONGODB_URL`), shared by every replica and worker. A write is
 * uploaded under a temporary name and renamed once complete; older versions of the key are then removed.
 */
export class GridFsBlobStore extends BlobStore {
  readonly kind = 'gridfs';
  private readonly bucket: GridFSBucket;

  constructor(client: MongoClient) {
    super();
    this.bucket = new GridFSBucket(client.db(), { bucketName: 'blobs' });
  }

  private async find(key: string): Promise<FileDoc | null> {
    assertBlobKey(key);
    const [doc] = (await this.bucket.find({ filename: key }).sort({ uploadDate: -1 }).limit(1).toArray()) as FileDoc[];
    return doc ?? null;
  }

  async put(key: string, source: Readable, contentType: string, signal?: AbortSignal): Promise<BlobInfo> {
    assertBlobKey(key);
    const temporary = `${key}.partial-${randomBytes(6).toString('hex')}`;
    const upload = this.bucket.openUploadStream(temporary, { metadata: { contentType } });
    try {
      await pipeline(source, upload, { signal });
    } catch (error) {
      await this.bucket.delete(upload.id).catch(() => undefined);
      throw error;
    }
    const previous = (await this.bucket.find({ filename: key }).toArray()) as FileDoc[];
    await this.bucket.rename(upload.id, key);
    for (const old of previous) await this.bucket.delete(old._id as never).catch(() => undefined);
    return { size: upload.length, contentType };
  }

  async putFile(key: string, path: string, contentType: string): Promise<BlobInfo> {
    const info = await this.put(key, createReadStream(path), contentType);
    await unlink(path);
    return info;
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const doc = await this.find(key);
    return doc ? { size: doc.length, contentType: doc.metadata?.contentType ?? 'application/octet-stream' } : null;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const doc = await this.find(key);
    if (!doc) throw new BlobNotFoundError(key);
    return this.bucket.openDownloadStream(doc._id as never, range ? { start: range.start, end: range.end + 1 } : {});
  }

  async withLocalFile<R>(key: string, work: (path: string) => Promise<R>): Promise<R> {
    const directory = await mkdtemp(join(tmpdir(), scratchPrefix('blob')));
    const path = join(directory, key.split('/').pop()!);
    try {
      await pipeline(await this.read(key), createWriteStream(path));
      await stat(path);
      return await work(path);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    for (const doc of (await this.bucket.find({ filename: key }).toArray()) as FileDoc[]) {
      await this.bucket.delete(doc._id as never).catch(() => undefined);
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertBlobKey(prefix);
    const docs = (await this.bucket.find({ filename: { $regex: `^${escapeRegExp(prefix)}/` } }).toArray()) as FileDoc[];
    for (const doc of docs) await this.bucket.delete(doc._id as never).catch(() => undefined);
    return docs.filter((doc) => !doc.filename.includes('.partial-')).length;
  }

  async *list(prefix?: string): AsyncIterable<BlobEntry> {
    if (prefix) assertBlobKey(prefix);
    const filter = prefix ? { filename: { $regex: `^${escapeRegExp(prefix)}/` } } : {};
    // Newest first within a key: while a write replaces a blob, the older version may still be there.
    const cursor = this.bucket.find(filter).sort({ filename: 1, uploadDate: -1 });
    let previous: string | null = null;
    for await (const doc of cursor as AsyncIterable<FileDoc>) {
      if (doc.filename === previous || doc.filename.includes('.partial-')) continue;
      previous = doc.filename;
      yield {
        key: doc.filename,
        size: doc.length,
        contentType: doc.metadata?.contentType ?? 'application/octet-stream',
      };
    }
  }
}
