import type { Decider } from '@kora/kernel';
import type {
  LoudnessSummary,
  ProcessingOptions,
  TrackEvent,
  TrackFiles,
  TrackService,
  TrackStatus,
  TrackUploaded,
} from '../contracts/events';
import { processingStatus, resultStatus, statusOnUnlock } from '../contracts/status';
import { NotProcessingError, ResultNotReadyError, StaleJobError, TrackNotFoundError } from './errors';

/** A job is retried this many times when its worker disappears, then the track fails. */
export const MAX_ATTEMPTS = 3;

export interface TrackState {
  exists: boolean;
  deleted: boolean;
  ownerId: string | null;
  service: TrackService | null;
  status: TrackStatus | null;
  isDemo: boolean;
  unlocked: boolean;
  resultReady: boolean;
  jobId: string | null;
  attempt: number;
  files: TrackFiles;
}

export type TrackCommand =
  | { type: 'UploadTrack'; upload: TrackUploaded['data']; jobId: string; options: ProcessingOptions }
  | {
      /** A demo track: already processed (from shared demo material) and unlocked. */
      type: 'ProvisionDemo';
      upload: TrackUploaded['data'];
      options: ProcessingOptions;
      files: TrackFiles;
      stems: string[] | null;
    }
  | { type: 'StartProcessing'; jobId: string; workerId: string }
  | { type: 'RecordProgress'; jobId: string; status: TrackStatus; progress: number }
  | {
      type: 'CompleteProcessing';
      jobId: string;
      files: TrackFiles;
      stems: string[] | null;
      processingSeconds: number;
      durationSec: number;
      before: LoudnessSummary | null;
      after: LoudnessSummary | null;
    }
  | { type: 'FailProcessing'; jobId: string; code: string; message: string }
  | { type: 'CancelProcessing' }
  | { type: 'UnlockTrack'; via: 'demo' | 'payment' | 'credit' }
  | { type: 'DeleteTrack' }
  | { type: 'RecordEmail'; recipientFingerprint: string; expiresAt: string };

export const initialTrackState = (): TrackState => ({
  exists: false,
  deleted: false,
  ownerId: null,
  service: null,
  status: null,
  isDemo: false,
  unlocked: false,
  resultReady: false,
  jobId: null,
  attempt: 0,
  files: {},
});

export function isWorking(state: TrackState): boolean {
  return state.exists && !state.deleted && state.jobId !== null && !state.resultReady && state.status !== 'FAILED';
}

export function evolveTrack(state: TrackState, event: TrackEvent): TrackState {
  switch (event.type) {
    case 'TrackUploaded':
      return {
        ...initialTrackState(),
        exists: true,
        ownerId: event.data.ownerId,
        service: event.data.service,
        status: 'UPLOADING',
        isDemo: event.data.isDemo,
        files: { original: event.data.originalKey },
      };
    case 'ProcessingRequested':
      return {
        ...state,
        jobId: event.data.jobId,
        attempt: 0,
        status: processingStatus(event.data.service),
      };
    case 'ProcessingStarted':
      return { ...state, attempt: event.data.attempt };
    case 'ProcessingProgressed':
      return { ...state, status: event.data.status };
    case 'PreviewReady':
    case 'StemsReady':
      return {
        ...state,
        resultReady: true,
        files: { ...state.files, ...event.data.files },
        status: resultStatus(state.service!, state.unlocked),
      };
    case 'ProcessingFailed':
    case 'ProcessingCancelled':
      return { ...state, status: 'FAILED' };
    case 'TrackUnlocked':
      return {
        ...state,
        unlocked: true,
        status: statusOnUnlock(state.service!, state.status),
      };
    case 'MasterReady':
      return { ...state, status: resultStatus(event.data.service, true) };
    case 'TrackDeleted':
      return { ...state, deleted: true };
    case 'TrackResultEmailed':
      return state;
  }
}

function requireTrack(state: TrackState): void {
  if (!state.exists || state.deleted) throw new TrackNotFoundError();
}

function requireJob(state: TrackState, jobId: string): void {
  requireTrack(state);
  if (state.jobId !== jobId || !isWorking(state)) throw new StaleJobError();
}

export function decideTrack(command: TrackCommand, state: TrackState): TrackEvent[] {
  switch (command.type) {
    case 'UploadTrack':
      if (state.exists) return []; // a retried request with the same id
      return [
        { type: 'TrackUploaded', data: command.upload },
        {
          type: 'ProcessingRequested',
          data: {
            jobId: command.jobId,
            service: command.upload.service,
            options: command.options,
            upload: command.upload,
          },
        },
        ...(command.upload.isDemo ? [{ type: 'TrackUnlocked' as const, data: { via: 'demo' as const } }] : []),
      ];
    case 'ProvisionDemo': {
      if (state.exists) return []; // provisioned already (processors deliver at least once)
      const service = command.upload.service;
      const done = {
        jobId: `demo-${command.upload.trackId}`,
        service,
        files: command.files,
        processingSeconds: 0,
        durationSec: command.upload.durationSec,
      };
      return [
        { type: 'TrackUploaded', data: { ...command.upload, isDemo: true } },
        command.stems
          ? { type: 'StemsReady', data: { ...done, stems: command.stems } }
          : { type: 'PreviewReady', data: { ...done, before: null, after: null } },
        { type: 'TrackUnlocked', data: { via: 'demo' } },
      ];
    }
    case 'StartProcessing':
      requireJob(state, command.jobId);
      if (state.attempt >= MAX_ATTEMPTS) {
        return [
          {
            type: 'ProcessingFailed',
            data: {
              jobId: command.jobId,
              code: 'PROCESSING.WORKER_LOST',
              message: 'Processing stopped three times; please try again.',
            },
          },
        ];
      }
      return [
        {
          type: 'ProcessingStarted',
          data: { jobId: command.jobId, workerId: command.workerId, attempt: state.attempt + 1 },
        },
      ];
    case 'RecordProgress':
      requireJob(state, command.jobId);
      if (state.status === command.status) return [];
      return [
        {
          type: 'ProcessingProgressed',
          data: { jobId: command.jobId, status: command.status, progress: command.progress },
        },
      ];
    case 'CompleteProcessing': {
      requireJob(state, command.jobId);
      const common = {
        jobId: command.jobId,
        service: state.service!,
        files: command.files,
        processingSeconds: command.processingSeconds,
        durationSec: command.durationSec,
      };
      const ready: TrackEvent = command.stems
        ? { type: 'StemsReady', data: { ...common, stems: command.stems } }
        : { type: 'PreviewReady', data: { ...common, before: command.before, after: command.after } };
      // Paid for before the result existed: the final result is ready with it.
      return state.unlocked && !state.isDemo
        ? [ready, { type: 'MasterReady', data: { service: state.service! } }]
        : [ready];
    }
    case 'FailProcessing':
      requireJob(state, command.jobId);
      return [
        { type: 'ProcessingFailed', data: { jobId: command.jobId, code: command.code, message: command.message } },
      ];
    case 'CancelProcessing':
      requireTrack(state);
      if (!isWorking(state)) throw new NotProcessingError();
      return [{ type: 'ProcessingCancelled', data: { jobId: state.jobId! } }];
    case 'UnlockTrack':
      requireTrack(state);
      if (state.unlocked) return [];
      return [
        { type: 'TrackUnlocked', data: { via: command.via } },
        ...(state.resultReady ? [{ type: 'MasterReady' as const, data: { service: state.service! } }] : []),
      ];
    case 'DeleteTrack':
      if (!state.exists) throw new TrackNotFoundError();
      if (state.deleted) return [];
      return [
        ...(isWorking(state) ? [{ type: 'ProcessingCancelled' as const, data: { jobId: state.jobId! } }] : []),
        { type: 'TrackDeleted', data: { keys: Object.values(state.files) } },
      ];
    case 'RecordEmail':
      requireTrack(state);
      if (!state.resultReady) throw new ResultNotReadyError();
      return [
        {
          type: 'TrackResultEmailed',
          data: { recipientFingerprint: command.recipientFingerprint, expiresAt: command.expiresAt },
        },
      ];
  }
}

export const trackDecider: Decider<TrackCommand, TrackEvent, TrackState> = {
  initialState: initialTrackState,
  evolve: evolveTrack,
  decide: decideTrack,
};
