import { type BlobStore, BlobNotFoundError } from '../../blob-store';
import { NotFoundError } from '../../errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';

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
 * without downloading the whole file. Errors before the first byte go to the error filter like any other.
 */
export async function sendBlob(
  blobs: BlobStore,
  key: string,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { filename: string; contentType?: string | undefined; download?: boolean },
): Promise<void> {
  const info = await blobs.stat(key);
  if (!info) throw new NotFoundError('File', 'FILE.NOT_FOUND');
  const contentType = options.contentType ?? info.contentType;
  const extension = Object.hasOwn(EXTENSIONS, contentType) ? EXTENSIONS[contentType] : undefined;
  const filename = `${options.filename}${extension ? `.${extension}` : ''}`.replace(/["\\\r\n]/g, '');
  reply.headers({
    'accept-ranges': 'bytes',
    'content-type': contentType,
    'cache-control': 'private, max-age=0, must-revalidate',
    'content-disposition': `${options.download ? 'attachment' : 'inline'}; filename="${filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
  });
  const range = parseRange(request.headers.range, info.size);
  if (range === 'invalid') {
    await reply.code(416).header('content-range', `bytes */${info.size}`).send();
    return;
  }
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
    reply.header('content-length', String(range.end - range.start + 1));
  } else {
    reply.code(200).header('content-length', String(info.size));
  }
  if (request.method === 'HEAD') {
    // Answered by hand: Fastify's HEAD twin of a GET route would announce an empty answer as zero bytes long.
    reply.hijack();
    reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
    reply.raw.end();
    return;
  }
  let body;
  try {
    body = await blobs.read(key, range ?? undefined);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new NotFoundError('File', 'FILE.NOT_FOUND');
    throw error;
  }
  await reply.send(body);
}
