import { CodedError } from '@kora/kernel';

export class TrackNotFoundError extends CodedError {
  readonly code = 'TRACKS.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Track not found');
  }
}

/** The spec's message `services.errors.alreadyProcessing` (the client's translation of this code). */
export class AlreadyProcessingError extends CodedError {
  readonly code = 'TRACKS.ALREADY_PROCESSING';
  readonly kind = 'conflict';
  constructor() {
    super('There is already a track being processed. Please wait for it to complete.');
  }
}

export class NotProcessingError extends CodedError {
  readonly code = 'TRACKS.NOT_PROCESSING';
  readonly kind = 'conflict';
  constructor() {
    super('This track is not being processed.');
  }
}

/** A worker's step refers to a job the track no longer runs (cancelled, deleted, finished, or retried elsewhere). */
export class StaleJobError extends CodedError {
  readonly code = 'TRACKS.STALE_JOB';
  readonly kind = 'conflict';
  constructor() {
    super('The track is no longer waiting for this job.');
  }
}

export class TrackLockedError extends CodedError {
  readonly code = 'TRACKS.LOCKED';
  readonly kind = 'forbidden';
  constructor() {
    super('Unlock this track to get the full result.');
  }
}

export class ResultNotReadyError extends CodedError {
  readonly code = 'TRACKS.NOT_READY';
  readonly kind = 'conflict';
  constructor() {
    super('The result is not ready yet.');
  }
}
