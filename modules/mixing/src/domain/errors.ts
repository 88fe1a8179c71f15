import type { MixingErrorCode } from '@kora/contracts';
import { CodedError, UploadRejectedError } from '@kora/kernel';

/** A refusal of the mixing module: one class per `MIXING.*` code below, the client translates the code. */
export abstract class MixError extends CodedError<MixingErrorCode> {}

export class SessionNotFoundError extends MixError {
  readonly code = 'MIXING.SESSION_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Mixing session not found');
  }
}

export class MixTrackNotFoundError extends MixError {
  readonly code = 'MIXING.TRACK_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Track not found');
  }
}

export class MixFileNotFoundError extends MixError {
  readonly code = 'MIXING.FILE_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('File not found');
  }
}

export class NoFilesError extends MixError {
  readonly code = 'MIXING.NO_FILES';
  readonly kind = 'invalid';
  constructor() {
    super('No files provided for upload');
  }
}

export class TooManyTracksError extends MixError {
  readonly code = 'MIXING.MAXIMUM_FILES';
  readonly kind = 'invalid';
  constructor(max: number) {
    super(`A mix takes at most ${max} files.`, { max });
  }
}

export class TooFewTracksError extends MixError {
  readonly code = 'MIXING.MINIMUM_FILES';
  readonly kind = 'invalid';
  constructor(min: number) {
    super(`A mix needs at least ${min} files.`, { min });
  }
}

/** Changing a session's tracks or settings while its mix renders would mix something else than asked. */
export class MixBusyError extends MixError {
  readonly code = 'MIXING.BUSY';
  readonly kind = 'conflict';
  constructor() {
    super('The mix is being made: wait or cancel it first.');
  }
}

/** A worker's step refers to a mix the session no longer waits for. */
export class StaleMixJobError extends MixError {
  readonly code = 'MIXING.STALE_JOB';
  readonly kind = 'conflict';
  constructor() {
    super('The session no longer waits for this mix.');
  }
}

export class MixLockedError extends MixError {
  readonly code = 'MIXING.LOCKED';
  readonly kind = 'forbidden';
  constructor() {
    super('Unlock this mix to get the full result.');
  }
}

export class MixLinkExpiredError extends MixError {
  readonly code = 'MIXING.LINK_EXPIRED';
  readonly kind = 'gone';
  constructor() {
    super('This download link has expired.');
  }
}

/** A mix is made of WAV files only. */
export class NotWavError extends UploadRejectedError {
  readonly code = 'UPLOAD.FILE_FORMAT';
  constructor() {
    super('Mixing takes WAV files only.');
  }
}
