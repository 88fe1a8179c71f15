import type { TrackService, TrackStatus } from './events';

/**
 * The status a finished result shows: locked results are previews (or stems to preview); unlocked ones are the
 * final result. Shared by the decider and the read models so both always agree.
 */
export function resultStatus(service: TrackService, unlocked: boolean): TrackStatus {
  if (service === 'STEM_SEPARATION') return unlocked ? 'COMPLETED' : 'STEMS_READY';
  if (service === 'AI_MASTERING') return unlocked ? 'MASTER_READY' : 'PREVIEW_READY';
  return unlocked ? 'COMPLETED' : 'PREVIEW_READY';
}

/** The status a job's first step shows. */
export function processingStatus(service: TrackService): TrackStatus {
  return service === 'STEM_SEPARATION' ? 'STEMS_PROCESSING' : 'PROCESSING';
}
