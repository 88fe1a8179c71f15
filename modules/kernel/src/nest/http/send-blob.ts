import { type BlobStore, BlobNotFoundError } from '../../blob-store';
import { NotFoundError } from '../../errors';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';

const EXTENSIONS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'application/json': 'json',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-m4v': 'm4v',
  'video/mpeg': 'mpg',
  'video/mp2t': 'ts',
};

/** Parses a single `bytes=` range; null when absent, 'invalid' when it cannot be satisfied. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/**
 * Streams a blob with HTTP range support (206 with Content-Range, 416 when unsatisfiable), so players can seek
 * without downloading the whole file.
 */
export async function sendBlob(
  blobs: BlobStore,
  key: string,
  request: Request,
  response: Response,
  options: { filename: string; contentType?: string | undefined; download?: boolean },
): Promise<void> {
  const info = await blobs.stat(key);
  if (!info) throw new NotFoundError('File', 'FILE.NOT_FOUND');
  const contentType = options.contentType ?? info.contentType;
  const extension = EXTENSIONS[contentType];
  const filename = `${options.filename}${extension ? `.${extension}` : ''}`.replace(/["\\\r\n]/g, '');
  response.setHeader('Accept-Ranges', 'bytes');
  response.setHeader('Content-Type', contentType);
  response.setHeader('Cache-Control', 'private, max-age=0, must-revalidate');
  response.setHeader(
    'Content-Disposition',
    `${options.download ? 'attachment' : 'inline'}; filename="${filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
  );
  const range = parseRange(request.headers.range, info.size);
  if (range === 'invalid') {
    response.status(416).setHeader('Content-Range', `bytes */${info.size}`).end();
    return;
  }
  if (range) {
    response.status(206);
    response.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    response.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    response.status(200);
    response.setHeader('Content-Length', String(info.size));
  }
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  try {
    await pipeline(await blobs.read(key, range ?? undefined), response);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new NotFoundError('File', 'FILE.NOT_FOUND');
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  }
}
