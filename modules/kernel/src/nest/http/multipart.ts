import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { CodedError } from '../../errors';

/** A refused upload: `code` is the client's message key, `details` what the message shows (a limit in MB). */
export class UploadRejectedError extends CodedError {
  readonly status: number;
  constructor(
    readonly code: string,
    message: string,
    details?: Record<string, unknown>,
    status = 400,
  ) {
    super(message, details);
    this.status = status;
  }
}

export interface ReceivedFile<T> {
  filename: string;
  mimeType: string;
  size: number;
  stored: T;
}

export interface ReceiveOptions<T> {
  /** The form field that carries files. */
  fileField: string;
  maxFiles: number;
  /** The largest file accepted, given the fields received before the file started. */
  maxBytes: (fieldsSoFar: Record<string, string>) => number;
  /** Streams one file somewhere (the blob store); the stream errors if the file passes `maxBytes`. */
  store: (file: Readable, index: number, filename: string, mimeType: string) => Promise<T>;
}

/** Counts bytes going through and fails the stream past the limit, so nothing larger is ever stored. */
class SizeLimit extends Transform {
  size = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      callback(
        new UploadRejectedError(
          'upload.fileSizeMax',
          `The file is too large (at most ${Math.round(this.limit / 1048576)} MB).`,
          { limitMb: Math.round(this.limit / 1048576) },
          413,
        ),
      );
      return;
    }
    callback(null, chunk);
  }
}

/**
 * Reads a multipart request as a stream: form fields into a record, each file piped straight into `store` (never
 * held whole in memory). Resolves once every file is stored; if anything fails, the files stored so far are
 * reported through `stored` of the rejection so the caller can remove them.
 */
export function receiveMultipart<T>(
  request: IncomingMessage,
  options: ReceiveOptions<T>,
): Promise<{ fields: Record<string, string>; files: ReceivedFile<T>[] }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        // Keep the name exactly as sent (the name is stored as given; tags are stripped when it is shown).
        preservePath: true,
        limits: { files: options.maxFiles, fields: 20, fieldSize: 64 * 1024, parts: options.maxFiles + 20 },
      });
    } catch {
      reject(new UploadRejectedError('upload.fileRequired', 'Send the file as multipart/form-data.'));
      return;
    }
    const fields: Record<string, string> = {};
    const pending: Array<Promise<ReceivedFile<T>>> = [];
    let failure: unknown = null;
    const fail = (error: unknown): void => {
      failure ??= error;
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.fileField || failure) {
        stream.resume();
        return;
      }
      const limit = new SizeLimit(options.maxBytes(fields));
      const index = pending.length;
      stream.on('limit', () => fail(new UploadRejectedError('upload.fileSizeMax', 'The file is too large.', {}, 413)));
      stream.pipe(limit);
      stream.on('error', (error) => limit.destroy(error));
      pending.push(
        options.store(limit, index, info.filename ?? 'upload', info.mimeType).then(
          (stored) => ({ filename: info.filename ?? 'upload', mimeType: info.mimeType, size: limit.size, stored }),
          (error: unknown) => {
            fail(error);
            stream.resume();
            throw error;
          },
        ),
      );
    });
    parser.on('error', (error) =>
      fail(new UploadRejectedError('upload.fileRequired', `The upload could not be read: ${(error as Error).message}`)),
    );
    parser.on('close', () => {
      void Promise.allSettled(pending).then((results) => {
        const files = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
        if (failure) {
          reject(Object.assign(failure as object, { stored: files.map((file) => file.stored) }));
          return;
        }
        resolve({ fields, files });
      });
    });
    request.on('aborted', () => {
      fail(new UploadRejectedError('upload.aborted', 'The upload was interrupted.'));
      parser.destroy();
    });
    request.pipe(parser);
  });
}
