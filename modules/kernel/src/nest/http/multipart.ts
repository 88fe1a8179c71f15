import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { FileRequiredError, FileTooLargeError, UploadAbortedError, UploadRejectedError } from '../../upload-errors';

export interface ReceivedFile<T> {
  /** The form field the file came in. */
  field: string;
  filename: string;
  mimeType: string;
  size: number;
  stored: T;
}

export interface ReceiveOptions<T> {
  /** The form field that carries files, or the fields (a file in any other field is not kept). */
  fileField: string | readonly string[];
  maxFiles: number;
  /**
   * The largest file accepted, given the fields received before the file started. Given no fields, the largest any
   * fields allow: the whole body may weigh `maxFiles` times that, plus the fields.
   */
  maxBytes: (fieldsSoFar: Record<string, string>) => number;
  /** Streams one file somewhere (the blob store); the stream errors if the file passes `maxBytes`. */
  store: (file: Readable, index: number, filename: string, mimeType: string, field: string) => Promise<T>;
}

const MB = 1024 * 1024;
/** What a body may carry besides its files: the fields (20 of 64 KB at most) and the parts' headers. */
const FORM_OVERHEAD = 2 * MB;

function tooLarge(limit: number, what = 'file'): FileTooLargeError {
  const limitMb = Math.round(limit / MB);
  return new FileTooLargeError(`The ${what} is too large (at most ${limitMb} MB).`, { limitMb }, 'too_large');
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
      callback(tooLarge(this.limit));
      return;
    }
    callback(null, chunk);
  }
}

/**
 * Reads a multipart request as a stream: form fields into a record, each file piped straight into `store` (never
 * held whole in memory). Resolves once every file is stored; if anything fails, the files stored so far are
 * reported through `stored` of the rejection so the caller can remove them.
 *
 * Every error path settles the one promise returned, and only once every `store` has settled (so the caller's
 * cleanup never races a write still in progress): a file past its limit (413 `UPLOAD.FILE_SIZE_MAX`), a body past
 * what `maxFiles` files and the form's fields can weigh (the same 413: files under another name, parts past the
 * limits and the text around the parts are not stored but count), a store that fails (a full disk), a malformed
 * body, a client that goes away. No stream error and no rejection is left without a handler: one bad request must
 * never reach the process's `unhandledRejection`.
 *
 * The first failure decides the answer: parsing stops there, without reading the rest of the body. The request is
 * left unread for the HTTP layer, which answers with `Connection: close` and discards a bounded amount of what
 * follows before closing the connection (`closeAfterAnswer`): a client sending on forever holds nothing.
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
      reject(new FileRequiredError('Send the file as multipart/form-data.'));
      return;
    }
    // No prototype: a field named `constructor` or `__proto__` is just a field.
    const fields = Object.create(null) as Record<string, string>;
    const pending: Array<Promise<ReceivedFile<T> | null>> = [];
    let failure: unknown = null;
    const fail = (error: unknown): void => {
      failure ??= error;
      // The answer is decided: stop reading. Destroying the parser ends the file being read (its store rejects)
      // and closes the parser, which settles the promise once every store has.
      request.unpipe(parser);
      parser.destroy();
    };
    const bodyLimit = options.maxFiles * options.maxBytes(Object.create(null) as Record<string, string>);
    let received = 0;
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > bodyLimit + FORM_OVERHEAD && !failure) fail(tooLarge(bodyLimit, 'upload'));
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    const fileFields: readonly string[] =
      typeof options.fileField === 'string' ? [options.fileField] : options.fileField;
    parser.on('file', (name, stream, info) => {
      if (!fileFields.includes(name) || failure) {
        // Not kept; its bytes count against the body's limit. A failure that stops the parser while this part is
        // being read ends it with an error, which must find a listener (an unheard stream error ends the process).
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      const limit = new SizeLimit(options.maxBytes(fields));
      const index = pending.length;
      const filename = info.filename ?? 'upload';
      // The size refusal is the answer even though the store reports it too; other stream errors reach the store.
      limit.on('error', (error) => {
        if (error instanceof UploadRejectedError) fail(error);
      });
      stream.on('limit', () => fail(new FileTooLargeError('The file is too large.', {}, 'too_large')));
      stream.on('error', (error) => limit.destroy(error));
      stream.pipe(limit);
      let stored: Promise<T>;
      try {
        stored = options.store(limit, index, filename, info.mimeType, name);
      } catch (error) {
        stored = Promise.reject(error);
      }
      pending.push(
        stored.then(
          (value) => ({ field: name, filename, mimeType: info.mimeType, size: limit.size, stored: value }),
          (error: unknown) => {
            fail(error);
            limit.destroy();
            return null;
          },
        ),
      );
    });
    parser.on('error', (error) =>
      fail(new FileRequiredError(`The upload could not be read: ${(error as Error).message}`)),
    );
    let closed = false;
    parser.on('close', () => {
      if (closed) return;
      closed = true;
      void Promise.all(pending).then((results) => {
        const files = results.filter((file): file is ReceivedFile<T> => file !== null);
        if (failure) {
          reject(Object.assign(failure as object, { stored: files.map((file) => file.stored) }));
          return;
        }
        resolve({ fields, files });
      });
    });
    const aborted = (): void => {
      fail(new UploadAbortedError());
      parser.destroy();
    };
    request.on('aborted', aborted);
    request.on('error', aborted);
    request.on('data', count);
    parser.once('close', () => request.off('data', count));
    request.pipe(parser);
  });
}
