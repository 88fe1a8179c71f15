import type { BlobStore } from '@kora/kernel';

export interface BlobCopyProgress {
  readonly copied: number;
  readonly skipped: number;
  readonly bytes: number;
}

/**
 * Copies every complete blob of `source` into `target` under the same key and content type. A blob the target
 * already holds with the same size is skipped, so a copy that stopped half-way can simply be run again; each write
 * is all-or-nothing on the target (the blob store's own guarantee), so an interruption leaves no half file there.
 */
export async function copyBlobs(
  source: BlobStore,
  target: BlobStore,
  onProgress?: (progress: BlobCopyProgress) => void,
): Promise<BlobCopyProgress> {
  let copied = 0;
  let skipped = 0;
  let bytes = 0;
  for await (const blob of source.list()) {
    const there = await target.stat(blob.key);
    if (there?.size === blob.size && there.contentType === blob.contentType) {
      skipped += 1;
    } else {
      const written = await target.put(blob.key, await source.read(blob.key), blob.contentType);
      if (written.size !== blob.size) {
        throw new Error(`${blob.key}: ${written.size} bytes written, ${blob.size} expected (changed while copying?)`);
      }
      copied += 1;
      bytes += written.size;
    }
    onProgress?.({ copied, skipped, bytes });
  }
  return { copied, skipped, bytes };
}
