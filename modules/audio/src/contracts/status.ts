import type { TrackService, TrackStatus } from './events';

/**
 * The status a finished result shows: locked results are previews (or stems to preview); unlocked ones, whatever
 * the service, are MASTER_READY (the final result streams and downloads). Shared by the decider and the read models
 * so both always agree.
 */
export function resultStatus(service: TrackService, unlocked: boolean): TrackStatus {
  if (unlocked) return 'MASTER_READY';
  return service === 'STEM_SEPARATION' ? 'STEMS_READY' : 'PREVIEW_READY';
}

/**
 * The unlock rule: unlocking a result that is ready (a preview, or stems to preview) makes it the final result;
 * unlocking before the result exists keeps the status, and the result arrives final (`resultStatus`). Shared by the
 * decider and the read models so both always agree.
 */
export function statusOnUnlock<Status extends TrackStatus | null>(
  service: TrackService,
  status: Status,
): TrackStatus | Status {
  return status === 'PREVIEW_READY' || status === 'STEMS_READY' ? resultStatus(service, true) : status;
}

/** The status a job's first step shows. */
export function processingStatus(service: TrackService): TrackStatus {
  return service === 'STEM_SEPARATION' ? 'STEMS_PROCESSING' : 'PROCESSING';
}

/** What a job the user cancelled shows (its error on the track and in `track.status`), told apart from a failure. */
export const CANCELLED_ERROR = { code: 'PROCESSING.CANCELLED', message: 'Processing was cancelled.' } as const;
