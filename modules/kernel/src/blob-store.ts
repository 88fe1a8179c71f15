import type { Readable } from 'node:stream';

export interface BlobInfo {
  readonly size: number;
  readonly contentType: string;
}

/** A stored blob, as listed. */
export interface BlobEntry extends BlobInfo {
  readonly key: string;
}

export interface ByteRange {
  /** First byte, inclusive. */
  readonly start: number;
  /** Last byte, inclusive. */
  readonly end: number;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob ${key}`);
  }
}

/** Keys are paths of lower-case letters, digits, dashes, underscores and dots (`tracks/<id>/original`). */
export const BLOB_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY.test(key) || key.includes('..') || key.length > 300) throw new Error(`Invalid blob key ${key}`);
}

/**
 * The blob store port: audio files and results. Adapters: a local directory (default) and MongoDB GridFS
 * (`BLOB_STORE=gridfs`). Writes are all-or-nothing: a blob is visible only once completely written.
 */
export abstract class BlobStore {
  abstract readonly kind: string;
  /** Streams `source` into the blob `key`; a failure or abort leaves nothing behind. */
  abstract put(key: string, source: Readable, contentType: string, signal?: AbortSignal): Promise<BlobInfo>;
  /** Stores a local file (moved when the store is on the same disk, else copied). */
  abstract putFile(key: string, path: string, contentType: string): Promise<BlobInfo>;
  abstract stat(key: string): Promise<BlobInfo | null>;
  /** Reads a blob or a byte range of it. */
  abstract read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Runs `work` with a local path to the blob's bytes (the blob itself on the local store, a temporary copy on
   * GridFS, removed afterwards).
   */
  abstract withLocalFile<R>(key: string, work: (path: string) => Promise<R>): Promise<R>;
  abstract delete(key: string): Promise<void>;
  /** Deletes every blob under `prefix/`. */
  abstract deletePrefix(prefix: string): Promise<number>;
  /** Every complete blob (under `prefix/` when given), each once; writes in progress are not listed. */
  abstract list(prefix?: string): AsyncIterable<BlobEntry>;
}
