/**
 * Typed engine errors. Each carries a stable `code` (`ENGINE.PROBLEM`) that the backend maps to a user message in one
 * place, and `details` with client-safe facts (never paths of other users, never personal data). Errors cross the
 * worker-thread boundary as plain objects (`toJSON`) and are rebuilt with `engineErrorFromJSON`.
 */
export type EngineErrorCode =
  | 'ENGINE.INPUT_NOT_FOUND'
  | 'ENGINE.EMPTY_INPUT'
  | 'ENGINE.TOO_SHORT'
  | 'ENGINE.UNSUPPORTED_FORMAT'
  | 'ENGINE.FORMAT_MISMATCH'
  | 'ENGINE.TRUNCATED_INPUT'
  | 'ENGINE.NO_AUDIO_TRACK'
  | 'ENGINE.NO_VIDEO_TRACK'
  | 'ENGINE.DECODE_FAILED'
  | 'ENGINE.ENCODE_FAILED'
  | 'ENGINE.INVALID_OPTIONS'
  | 'ENGINE.TOOL_MISSING'
  | 'ENGINE.CANCELLED'
  | 'ENGINE.WORKER_FAILED'
  | 'ENGINE.INTERNAL';

export interface EngineErrorJSON {
  name: string;
  code: EngineErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class EngineError extends Error {
  readonly details: Record<string, unknown> | undefined;
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }

  toJSON(): EngineErrorJSON {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export class InputNotFoundError extends EngineError {
  constructor(file: string) {
    super('ENGINE.INPUT_NOT_FOUND', `Input file not found: ${file}`);
  }
}

/** Zero bytes, or a valid container holding no samples. */
export class EmptyInputError extends EngineError {
  constructor(reason: string) {
    super('ENGINE.EMPTY_INPUT', `The input is empty: ${reason}`);
  }
}

/** The content is not one of the accepted formats (WAV, MP3, MP4/MOV/M4V, MPEG). */
export class UnsupportedFormatError extends EngineError {
  constructor(reason: string, details?: Record<string, unknown>) {
    super('ENGINE.UNSUPPORTED_FORMAT', `Unsupported format: ${reason}`, details);
  }
}

/** The content is a different format from the one the file name or MIME type claims. */
export class FormatMismatchError extends EngineError {
  constructor(claimed: string, actual: string) {
    super('ENGINE.FORMAT_MISMATCH', `The file claims to be ${claimed} but its content is ${actual}`, {
      claimed,
      actual,
    });
  }
}

export class TruncatedInputError extends EngineError {
  constructor(reason: string, details?: Record<string, unknown>) {
    super('ENGINE.TRUNCATED_INPUT', `The input is truncated: ${reason}`, details);
  }
}

export class NoAudioTrackError extends EngineError {
  constructor() {
    super('ENGINE.NO_AUDIO_TRACK', 'The file has no audio track');
  }
}

export class NoVideoTrackError extends EngineError {
  constructor() {
    super('ENGINE.NO_VIDEO_TRACK', 'The video preset needs a file with a video track');
  }
}

export class DecodeFailedError extends EngineError {
  constructor(reason: string, details?: Record<string, unknown>) {
    super('ENGINE.DECODE_FAILED', `Decoding failed: ${reason}`, details);
  }
}

export class EncodeFailedError extends EngineError {
  constructor(reason: string, details?: Record<string, unknown>) {
    super('ENGINE.ENCODE_FAILED', `Encoding failed: ${reason}`, details);
  }
}

/** The input is too short for the job (a separation needs at least a second of sound). */
export class TooShortError extends EngineError {
  constructor(minimumSec: number, durationSec: number) {
    super('ENGINE.TOO_SHORT', `The input lasts ${durationSec.toFixed(2)} s; at least ${minimumSec} s is needed`, {
      minimumSec,
      durationSec,
    });
  }
}

export class InvalidOptionsError extends EngineError {
  constructor(reason: string, details?: Record<string, unknown>) {
    super('ENGINE.INVALID_OPTIONS', `Invalid options: ${reason}`, details);
  }
}

/** ffmpeg/ffprobe could not be found, or the compiled worker entry is missing. */
export class ToolMissingError extends EngineError {
  constructor(tool: string, hint: string) {
    super('ENGINE.TOOL_MISSING', `${tool} is not available: ${hint}`, { tool });
  }
}

export class CancelledError extends EngineError {
  constructor() {
    super('ENGINE.CANCELLED', 'The job was cancelled');
  }
}

export class WorkerFailedError extends EngineError {
  constructor(reason: string) {
    super('ENGINE.WORKER_FAILED', `The engine worker failed: ${reason}`);
  }
}

/** A bug or an unexpected condition inside the engine; the message is for logs, not for users. */
export class InternalEngineError extends EngineError {
  constructor(reason: string) {
    super('ENGINE.INTERNAL', reason);
  }
}

const CODES = new Set<string>([
  'ENGINE.INPUT_NOT_FOUND',
  'ENGINE.EMPTY_INPUT',
  'ENGINE.TOO_SHORT',
  'ENGINE.UNSUPPORTED_FORMAT',
  'ENGINE.FORMAT_MISMATCH',
  'ENGINE.TRUNCATED_INPUT',
  'ENGINE.NO_AUDIO_TRACK',
  'ENGINE.NO_VIDEO_TRACK',
  'ENGINE.DECODE_FAILED',
  'ENGINE.ENCODE_FAILED',
  'ENGINE.INVALID_OPTIONS',
  'ENGINE.TOOL_MISSING',
  'ENGINE.CANCELLED',
  'ENGINE.WORKER_FAILED',
  'ENGINE.INTERNAL',
]);

export function isEngineErrorCode(code: unknown): code is EngineErrorCode {
  return typeof code === 'string' && CODES.has(code);
}

/** Rebuilds an error sent from a worker; unknown shapes become ENGINE.WORKER_FAILED. */
export function engineErrorFromJSON(json: unknown): EngineError {
  if (json && typeof json === 'object') {
    const o = json as Partial<EngineErrorJSON>;
    if (isEngineErrorCode(o.code)) {
      if (o.code === 'ENGINE.CANCELLED') return new CancelledError();
      const error = new EngineError(o.code, String(o.message ?? o.code), o.details);
      if (typeof o.name === 'string') error.name = o.name;
      return error;
    }
    if (typeof o.message === 'string') return new WorkerFailedError(o.message);
  }
  return new WorkerFailedError(String(json));
}

/** Normalises anything thrown inside the engine into an EngineError (unknown errors become ENGINE.INTERNAL). */
export function toEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof Error) return new InternalEngineError(error.stack ?? error.message);
  return new InternalEngineError(String(error));
}
