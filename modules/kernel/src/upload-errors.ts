import type { UploadErrorCode } from '@kora/contracts';
import { CodedError, type ErrorKind } from './errors';

/**
 * A refused upload (multipart or resumable): one class per `UPLOAD.*` code, `details` what the client's message shows
 * (a limit in MB). The upload rules of a module (the audio upload's service and format, the mixing upload's WAV
 * only) declare theirs in its `domain/errors.ts`, on this base.
 */
export abstract class UploadRejectedError extends CodedError<UploadErrorCode> {
  readonly kind: ErrorKind;
  constructor(message: string, details?: Record<string, unknown>, kind: ErrorKind = 'invalid') {
    super(message, details);
    this.kind = kind;
  }
}

export class FileRequiredError extends UploadRejectedError {
  readonly code = 'UPLOAD.FILE_REQUIRED';
  constructor(message = 'Choose a file to upload.') {
    super(message);
  }
}

/** Larger than the purpose takes: 400 when refused before any byte came (declared), 413 past the limit while read. */
export class FileTooLargeError extends UploadRejectedError {
  readonly code = 'UPLOAD.FILE_SIZE_MAX';
}

export class FileTooSmallError extends UploadRejectedError {
  readonly code = 'UPLOAD.FILE_SIZE_MIN';
  constructor(message: string, details: { limitMb: number }) {
    super(message, details);
  }
}

/** The file cannot be read to its end: cut short while copied or downloaded. */
export class DamagedFileError extends UploadRejectedError {
  readonly code = 'UPLOAD.DAMAGED_FILE';
  constructor(message = 'This file is damaged or incomplete.') {
    super(message);
  }
}

export class UploadAbortedError extends UploadRejectedError {
  readonly code = 'UPLOAD.ABORTED';
  constructor() {
    super('The upload was interrupted.');
  }
}

export class UploadMetadataError extends UploadRejectedError {
  readonly code = 'UPLOAD.METADATA';
  constructor() {
    super('The upload’s metadata cannot be read.');
  }
}

export class UploadPurposeError extends UploadRejectedError {
  readonly code = 'UPLOAD.PURPOSE';
  constructor() {
    super('Say what the file is for.');
  }
}

export class UploadLengthRequiredError extends UploadRejectedError {
  readonly code = 'UPLOAD.LENGTH_REQUIRED';
  constructor(message = 'Say the file’s length in bytes.') {
    super(message);
  }
}

export class UploadOffsetRequiredError extends UploadRejectedError {
  readonly code = 'UPLOAD.OFFSET_REQUIRED';
}

export class UploadPastLengthError extends UploadRejectedError {
  readonly code = 'UPLOAD.PAST_LENGTH';
  constructor() {
    super('More bytes were sent than the file’s length.');
  }
}

export class UploadNotFoundError extends CodedError<UploadErrorCode> {
  readonly code = 'UPLOAD.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('This upload does not exist or has expired. Send the file again.');
  }
}

/** The client's offset is not the server's: it asks for the server's (HEAD) and goes on from there. */
export class UploadOffsetError extends CodedError<UploadErrorCode> {
  readonly code = 'UPLOAD.OFFSET_MISMATCH';
  readonly kind = 'conflict';
  constructor(offset: number) {
    super('The upload continues from the server’s offset.', { offset });
  }
}

export class UploadIncompleteError extends CodedError<UploadErrorCode> {
  readonly code = 'UPLOAD.INCOMPLETE';
  readonly kind = 'conflict';
  constructor(offset: number, length: number) {
    super('The file has not been sent whole yet.', { offset, length });
  }
}
