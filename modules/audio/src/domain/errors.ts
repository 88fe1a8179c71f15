import type { AudioErrorCode } from '@kora/contracts';
import { CodedError, UploadRejectedError } from '@kora/kernel';

/** A refusal of the audio module about a track (its upload's refusals are `UploadRejectedError`s, below). */
export abstract class AudioError extends CodedError<AudioErrorCode> {}

export class TrackNotFoundError extends AudioError {
  readonly code = 'TRACKS.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Track not found');
  }
}

/** The spec's message `services.errors.alreadyProcessing` (the client's translation of this code). */
export class AlreadyProcessingError extends AudioError {
  readonly code = 'TRACKS.ALREADY_PROCESSING';
  readonly kind = 'conflict';
  constructor() {
    super('There is already a track being processed. Please wait for it to complete.');
  }
}

export class NotProcessingError extends AudioError {
  readonly code = 'TRACKS.NOT_PROCESSING';
  readonly kind = 'conflict';
  constructor() {
    super('This track is not being processed.');
  }
}

/** A worker's step refers to a job the track no longer runs (cancelled, deleted, finished, or retried elsewhere). */
export class StaleJobError extends AudioError {
  readonly code = 'TRACKS.STALE_JOB';
  readonly kind = 'conflict';
  constructor() {
    super('The track is no longer waiting for this job.');
  }
}

export class TrackLockedError extends AudioError {
  readonly code = 'TRACKS.LOCKED';
  readonly kind = 'forbidden';
  constructor() {
    super('Unlock this track to get the full result.');
  }
}

export class ResultNotReadyError extends AudioError {
  readonly code = 'TRACKS.NOT_READY';
  readonly kind = 'conflict';
  constructor() {
    super('The result is not ready yet.');
  }
}

/** A result e-mailed to an address other than the account's own, past the day's limit (`SHARES_PER_DAY`). */
export class ShareLimitError extends AudioError {
  readonly code = 'EMAIL.DAILY_LIMIT';
  readonly kind = 'too_many_requests';
  constructor(limit: number, retryAfterSeconds: number) {
    super(`You can send results to ${limit} other addresses a day. Send it to your own address, or try again later.`, {
      retryAfterSeconds,
    });
  }
}

export class LinkExpiredError extends AudioError {
  readonly code = 'TRACKS.LINK_EXPIRED';
  readonly kind = 'gone';
  constructor() {
    super('This download link has expired. Ask for the e-mail again.');
  }
}

// The upload's rules (`application/upload/upload-rules.ts`): what the chosen service takes.

export class InvalidServiceError extends UploadRejectedError {
  readonly code = 'UPLOAD.INVALID_SERVICE';
  constructor() {
    super('Choose mastering, stem separation or enhancement.');
  }
}

export class InvalidPresetError extends UploadRejectedError {
  readonly code = 'UPLOAD.INVALID_PRESET';
  constructor() {
    super('Unknown enhancement preset.');
  }
}

export class InvalidModeError extends UploadRejectedError {
  readonly code = 'UPLOAD.INVALID_MODE';
  constructor() {
    super('Unknown stem mode.');
  }
}

export class InvalidIntensityError extends UploadRejectedError {
  readonly code = 'UPLOAD.INVALID_INTENSITY';
  constructor() {
    super('Choose a low, medium or high intensity.');
  }
}

export class InvalidTargetError extends UploadRejectedError {
  readonly code = 'UPLOAD.INVALID_TARGET';
  constructor() {
    super('Choose a loudness target: streaming, apple or club.');
  }
}

/** A reference track mastering cannot use (or one sent with another service). */
export class InvalidReferenceError extends UploadRejectedError {
  readonly code = 'UPLOAD.INVALID_REFERENCE';
}

export class TooManyFilesError extends UploadRejectedError {
  readonly code = 'UPLOAD.TOO_MANY_FILES';
  constructor() {
    super('Send one file, and at most one reference track.');
  }
}

export class SampleRateError extends UploadRejectedError {
  readonly code = 'UPLOAD.SAMPLE_RATE';
}

export class TooLongError extends UploadRejectedError {
  readonly code = 'UPLOAD.TOO_LONG';
}

export class AudioFormatError extends UploadRejectedError {
  readonly code = 'UPLOAD.AUDIO_FORMAT';
  constructor(message = 'Choose a WAV or MP3 audio file.') {
    super(message);
  }
}

export class VideoFormatError extends UploadRejectedError {
  readonly code = 'UPLOAD.INVALID_VIDEO_FORMAT';
  constructor() {
    super('Choose an MP4, MPEG, MOV or M4V video.');
  }
}

export class NoSoundInVideoError extends UploadRejectedError {
  readonly code = 'UPLOAD.NO_AUDIO_TRACK';
  constructor() {
    super('This video has no sound to enhance.');
  }
}
