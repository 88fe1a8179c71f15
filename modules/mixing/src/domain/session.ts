import { MIX_MAX_TRACKS, MIX_MIN_TRACKS, type MusicalStyle } from '@kora/contracts';
import type { Decider } from '@kora/kernel';
import type { MixEvent, MixSessionStatus, MixTrackFile, MixTrackSettings } from '../contracts/events';
import {
  MixBusyError,
  MixTrackNotFoundError,
  NoFilesError,
  SessionNotFoundError,
  StaleMixJobError,
  TooFewTracksError,
  TooManyTracksError,
} from './errors';

/** A session's track limits: the engine's, as `@kora/contracts` publishes them to the web (not a copy that may drift). */
export const MAX_TRACKS = MIX_MAX_TRACKS;
export const MIN_TRACKS = MIX_MIN_TRACKS;
export const MAX_ATTEMPTS = 3;

export interface SessionState {
  exists: boolean;
  ownerId: string | null;
  unlocked: boolean;
  status: MixSessionStatus;
  mixingStyle: MusicalStyle;
  sampleRate: 44100 | 48000;
  tracks: Map<string, MixTrackFile & { settings: MixTrackSettings }>;
  jobId: string | null;
  attempt: number;
}

export type SessionCommand =
  | {
      type: 'CreateSession';
      sessionId: string;
      ownerId: string;
      name: string;
      mixingStyle: MusicalStyle;
      sampleRate: 44100 | 48000;
    }
  | { type: 'ChangeSession'; mixingStyle: MusicalStyle; sampleRate: 44100 | 48000 }
  | { type: 'AddTracks'; tracks: Array<MixTrackFile & { settings: MixTrackSettings }> }
  | { type: 'ChangeTrackSettings'; trackId: string; settings: MixTrackSettings }
  | { type: 'RemoveTrack'; trackId: string }
  | { type: 'RequestMix'; jobId: string }
  | { type: 'StartMix'; jobId: string; workerId: string }
  | {
      type: 'CompleteMix';
      jobId: string;
      files: Record<string, string>;
      processingSeconds: number;
      durationSec: number;
    }
  | { type: 'FailMix'; jobId: string; code: string; message: string }
  | { type: 'CancelMix' }
  | { type: 'UnlockMix'; via: 'payment' | 'credit' };

const initial = (): SessionState => ({
  exists: false,
  ownerId: null,
  unlocked: false,
  status: 'CREATED',
  mixingStyle: 'POP',
  sampleRate: 44100,
  tracks: new Map(),
  jobId: null,
  attempt: 0,
});

function evolve(state: SessionState, event: MixEvent): SessionState {
  switch (event.type) {
    case 'MixSessionCreated':
      return {
        ...initial(),
        exists: true,
        ownerId: event.data.ownerId,
        mixingStyle: event.data.mixingStyle,
        sampleRate: event.data.sampleRate,
      };
    case 'MixSessionChanged':
      return { ...state, status: 'CREATED', jobId: null, ...event.data };
    case 'MixTrackAdded':
      return {
        ...state,
        status: 'CREATED',
        jobId: null,
        tracks: new Map(state.tracks).set(event.data.trackId, event.data),
      };
    case 'MixTrackSettingsChanged': {
      const track = state.tracks.get(event.data.trackId);
      if (!track) return state;
      return {
        ...state,
        status: 'CREATED',
        jobId: null,
        tracks: new Map(state.tracks).set(track.trackId, { ...track, settings: event.data.settings }),
      };
    }
    case 'MixTrackRemoved': {
      const tracks = new Map(state.tracks);
      tracks.delete(event.data.trackId);
      return { ...state, status: 'CREATED', jobId: null, tracks };
    }
    case 'MixRequested':
      return { ...state, status: 'PROCESSING', jobId: event.data.jobId, attempt: 0 };
    case 'MixStarted':
      return { ...state, attempt: event.data.attempt };
    case 'MixReady':
      return { ...state, status: 'COMPLETED' };
    case 'MixFailed':
    case 'MixCancelled':
      return { ...state, status: 'FAILED' };
    case 'MixUnlocked':
      return { ...state, unlocked: true };
  }
}

function requireSession(state: SessionState): void {
  if (!state.exists) throw new SessionNotFoundError();
}

/** Changing a session's tracks or settings while its mix renders would mix something else than asked. */
function requireEditable(state: SessionState): void {
  requireSession(state);
  if (state.status === 'PROCESSING') throw new MixBusyError();
}

function requireJob(state: SessionState, jobId: string): void {
  requireSession(state);
  if (state.status !== 'PROCESSING' || state.jobId !== jobId) throw new StaleMixJobError();
}

function decide(command: SessionCommand, state: SessionState): MixEvent[] {
  switch (command.type) {
    case 'CreateSession': {
      if (state.exists) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'MixSessionCreated', data }];
    }
    case 'ChangeSession':
      requireEditable(state);
      return [
        { type: 'MixSessionChanged', data: { mixingStyle: command.mixingStyle, sampleRate: command.sampleRate } },
      ];
    case 'AddTracks':
      requireEditable(state);
      if (command.tracks.length === 0) throw new NoFilesError();
      if (state.tracks.size + command.tracks.length > MAX_TRACKS) {
        throw new TooManyTracksError(MAX_TRACKS);
      }
      return command.tracks.map((track) => ({ type: 'MixTrackAdded' as const, data: track }));
    case 'ChangeTrackSettings':
      requireEditable(state);
      if (!state.tracks.has(command.trackId)) throw new MixTrackNotFoundError();
      return [{ type: 'MixTrackSettingsChanged', data: { trackId: command.trackId, settings: command.settings } }];
    case 'RemoveTrack': {
      requireEditable(state);
      const track = state.tracks.get(command.trackId);
      if (!track) throw new MixTrackNotFoundError();
      return [{ type: 'MixTrackRemoved', data: { trackId: track.trackId, fileKey: track.fileKey } }];
    }
    case 'RequestMix':
      requireSession(state);
      if (state.status === 'PROCESSING' || state.status === 'COMPLETED') return [];
      if (state.tracks.size < MIN_TRACKS) {
        throw new TooFewTracksError(MIN_TRACKS);
      }
      return [
        {
          type: 'MixRequested',
          data: {
            jobId: command.jobId,
            session: {
              mixingStyle: state.mixingStyle,
              sampleRate: state.sampleRate,
              tracks: [...state.tracks.values()],
            },
          },
        },
      ];
    case 'StartMix':
      requireJob(state, command.jobId);
      if (state.attempt >= MAX_ATTEMPTS) {
        return [
          {
            type: 'MixFailed',
            data: {
              jobId: command.jobId,
              code: 'PROCESSING.WORKER_LOST',
              message: 'The mix stopped three times; please try again.',
            },
          },
        ];
      }
      return [
        { type: 'MixStarted', data: { jobId: command.jobId, workerId: command.workerId, attempt: state.attempt + 1 } },
      ];
    case 'CompleteMix': {
      requireJob(state, command.jobId);
      const { type: _type, ...data } = command;
      return [{ type: 'MixReady', data }];
    }
    case 'FailMix':
      requireJob(state, command.jobId);
      return [{ type: 'MixFailed', data: { jobId: command.jobId, code: command.code, message: command.message } }];
    case 'CancelMix':
      requireSession(state);
      if (state.status !== 'PROCESSING') return [];
      return [{ type: 'MixCancelled', data: { jobId: state.jobId! } }];
    case 'UnlockMix':
      requireSession(state);
      return state.unlocked ? [] : [{ type: 'MixUnlocked', data: { via: command.via } }];
  }
}

export const sessionDecider: Decider<SessionCommand, MixEvent, SessionState> = {
  initialState: initial,
  evolve,
  decide,
};
