import type { Track, TrackStatusAnswer, TrackStatusMessage } from '@kora/contracts';
import { api, type ApiExtra } from '../../../lib/api';

/**
 * `GET /api/audio/track/{id}/status` as the studio keeps it: the answer (`TrackStatusAnswer`), which the `track.status`
 * socket messages update (`TrackStatusMessage`: `remainingMs` only from a running job).
 */
export type TrackStatus = Omit<TrackStatusAnswer, 'status' | 'remainingMs'> & {
  /** DELETED only from the socket: the track was deleted meanwhile. */
  status: TrackStatusMessage['status'];
  remainingMs?: number | null;
  /** Client-side: when the last `progress` and `remainingMs` arrived, on this machine's clock. */
  receivedAt?: number;
};

type StatusMessage = TrackStatusMessage;

const isStatusMessage = (payload: unknown): payload is StatusMessage =>
  typeof payload === 'object' &&
  payload !== null &&
  typeof (payload as StatusMessage).trackId === 'string' &&
  typeof (payload as StatusMessage).status === 'string';

/** The parts of the engine's report (`stream/report`) the result view shows; absent parts are not drawn. */
export interface LoudnessFacts {
  integratedLufs: number | null;
  truePeakDbtp: number | null;
  loudnessRangeLu?: number | null;
  shortTermCurveLufs?: Array<number | null>;
  spectrum?: { bandsHz: number[]; levelsDb: Array<number | null> };
}

/**
 * Mastering against a reference track (`referenceMatch`, null without one): the 1/3-octave curves of the reference,
 * the input and the master (each band's level minus the signal's integrated loudness, dB; null: no energy in the
 * band), and the spectral distance (RMS over `distanceBandHz`) from the input and from the master to the reference.
 * The engine's `ReferenceMatchReport` (`modules/audio-engine/src/master/report.ts`); only the parts shown are typed.
 */
export interface ReferenceMatch {
  method?: string;
  bandsHz: number[];
  referenceDb: Array<number | null>;
  inputDb: Array<number | null>;
  masterDb: Array<number | null>;
  distanceBandHz?: [number, number];
  distanceBeforeDb: number;
  distanceAfterDb: number;
  /** distanceAfterDb <= distanceBeforeDb. */
  closer: boolean;
}

export interface EngineReport {
  settings?: {
    targetLufs?: number;
    targetSource?: string;
    intensity?: string;
    reference?: string | null;
    chain?: string;
    preset?: string;
    ceilingDbtp?: number;
  };
  /**
   * Mastering: the loudness asked for against the loudness reached, and why it fell short (`true-peak-ceiling`,
   * `max-limiting`, `target-range`) when it did by more than the tolerance.
   */
  loudnessTarget?: {
    requestedLufs?: number | null;
    achievedLufs?: number | null;
    reached?: boolean;
    limitedBy?: string | null;
  };
  before?: LoudnessFacts;
  after?: LoudnessFacts;
  /** Mastering against a reference track; null (or absent, older reports) without one. */
  referenceMatch?: ReferenceMatch | null;
  decisions?: { preview?: { startSec?: number } };
}

const trackTag = (id: string) => ({ type: 'Track' as const, id });

export const tracksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTrack: build.query<Track, string>({
      query: (id) => `/audio/track/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [trackTag(id)],
    }),
    getTrackStatus: build.query<TrackStatus, string>({
      query: (id) => `/audio/track/${encodeURIComponent(id)}/status`,
      transformResponse: (status: TrackStatus) => ({ ...status, receivedAt: Date.now() }),
      /** Live: `track.status` messages for this track replace the cached status (the poll is the fallback). */
      async onCacheEntryAdded(id, { updateCachedData, cacheDataLoaded, cacheEntryRemoved, extra }) {
        const { realtime } = extra as ApiExtra;
        if (!realtime) return;
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const off = realtime.on('track.status', (payload) => {
          if (!isStatusMessage(payload) || payload.trackId !== id) return;
          updateCachedData((draft) => {
            draft.status = payload.status;
            draft.error = payload.error ?? null;
            if (typeof payload.progress === 'number') draft.progress = payload.progress;
            if (typeof payload.remainingMs === 'number') {
              draft.remainingMs = payload.remainingMs;
              draft.receivedAt = Date.now();
            }
            if (payload.estimatedCompletion) draft.estimatedCompletion = payload.estimatedCompletion;
          });
        });
        await cacheEntryRemoved;
        off();
      },
    }),
    getReport: build.query<EngineReport, string>({
      query: (id) => `/audio/track/${encodeURIComponent(id)}/stream/report`,
    }),
    cancelTrack: build.mutation<{ success: boolean }, string>({
      query: (id) => ({ url: `/audio/track/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [trackTag(id)],
    }),
    sendResultEmail: build.mutation<
      { success: boolean; expiresAt: string },
      { trackId: string; recipientEmail: string; service: string }
    >({
      query: (body) => ({ url: '/audio/send-email', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetTrackQuery,
  useGetTrackStatusQuery,
  useGetReportQuery,
  useCancelTrackMutation,
  useSendResultEmailMutation,
} = tracksApi;
