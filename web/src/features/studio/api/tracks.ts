import type {
  EngineReport,
  ResultEmailAnswer,
  ResultEmailRequest,
  SuccessAnswer,
  Track,
  TrackStatusAnswer,
  TrackStatusMessage,
} from '@kora/contracts';
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
    cancelTrack: build.mutation<SuccessAnswer, string>({
      query: (id) => ({ url: `/audio/track/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [trackTag(id)],
    }),
    sendResultEmail: build.mutation<ResultEmailAnswer, ResultEmailRequest>({
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
