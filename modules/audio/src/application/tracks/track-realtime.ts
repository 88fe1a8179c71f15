import type { TrackStatusMessage } from '@kora/contracts';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type RecordedEvent, streamId } from '@kora/kernel';
import { type RealtimeMessage, RealtimeRegistry } from '@kora/kernel/nest';
import { CANCELLED_ERROR, processingStatus, resultStatus } from '../../contracts/status';
import type { TrackEvent, TrackStatus } from '../../contracts/events';

/**
 * `track.status` to the owner's sockets for every status change recorded on a track (the job runner adds finer
 * progress between them: the share done and the time left, `progress-estimate.ts`). The payload is the status
 * endpoint's.
 */
@Injectable()
export class TrackRealtime implements OnModuleInit {
  constructor(private readonly registry: RealtimeRegistry) {}

  onModuleInit(): void {
    this.registry.register(
      [
        'ProcessingRequested',
        'ProcessingProgressed',
        'PreviewReady',
        'StemsReady',
        'ProcessingFailed',
        'ProcessingCancelled',
        'TrackUnlocked',
        'MasterReady',
        'TrackDeleted',
      ],
      (recorded) => {
        const event = recorded as RecordedEvent<TrackEvent>;
        const status = statusOf(event);
        if (!status) return null;
        return trackStatusMessage(event.metadata.userId, { trackId: streamId(event.streamName), ...status });
      },
    );
  }
}

/**
 * The one shape of a `track.status` message (docs/api.md), for a recorded change (here) and for a running job's
 * estimates between them (`track-jobs.ts`, with the time left).
 */
export function trackStatusMessage(
  userId: string,
  message: Omit<TrackStatusMessage, 'error' | 'estimatedCompletion'> & Partial<TrackStatusMessage>,
): RealtimeMessage {
  const { trackId, status, progress, error = null, remainingMs, estimatedCompletion = null } = message;
  const payload = { trackId, status, progress, error, estimatedCompletion } satisfies TrackStatusMessage;
  return {
    userId,
    channel: 'track.status',
    payload: remainingMs === undefined ? payload : { ...payload, remainingMs },
  };
}

function statusOf(
  event: RecordedEvent<TrackEvent>,
): { status: TrackStatus | 'DELETED'; progress: number | null; error: string | null } | null {
  switch (event.type) {
    case 'ProcessingRequested':
      return { status: processingStatus(event.data.service), progress: 0, error: null };
    case 'ProcessingProgressed':
      // The event holds the engine's own progress; the share of the job shown comes with the worker's estimates.
      return { status: event.data.status, progress: null, error: null };
    case 'PreviewReady':
    case 'StemsReady':
      return { status: resultStatus(event.data.service, false), progress: 1, error: null };
    case 'ProcessingFailed':
      return { status: 'FAILED', progress: null, error: event.data.message };
    case 'ProcessingCancelled':
      return { status: 'CANCELLED', progress: null, error: CANCELLED_ERROR.message };
    case 'MasterReady':
      return { status: resultStatus(event.data.service, true), progress: 1, error: null };
    case 'TrackDeleted':
      return { status: 'DELETED', progress: null, error: null };
    default:
      return null;
  }
}
