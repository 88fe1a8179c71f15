import type {
  BatchSettingsAnswer,
  BatchSettingsRequest,
  CreateMixSessionRequest,
  ErrorAnswer,
  MixPreview,
  MixRequestAnswer,
  MixSessionAnswer,
  MixStatusAnswer,
  MixStatusMessage,
  MixTrackSettingsChange,
  SuccessAnswer,
  UploadRefusal,
} from '@kora/contracts';
import { api, type ApiExtra, type TokenSource } from '../../../lib/api';
import { postNamingUploads, sendResumable, SendRefusedError, type SendProgress } from '../../../lib/resumable-upload';
import type { TrackSettings } from '../model/mixing';

export type { MixPreview, MixSession, MixTrack } from '@kora/contracts';

/** A mix's status as the studio follows it: the status call's answer, and the progress the socket adds. */
export type MixStatus = MixStatusAnswer & { progress?: number };

type StatusMessage = MixStatusMessage;

const isStatusMessage = (payload: unknown): payload is StatusMessage =>
  typeof payload === 'object' &&
  payload !== null &&
  typeof (payload as StatusMessage).sessionId === 'string' &&
  typeof (payload as StatusMessage).status === 'string';

const sessionTag = (id: string) => ({ type: 'MixSession' as const, id });

export const mixingApi = api.enhanceEndpoints({ addTagTypes: ['MixSession'] }).injectEndpoints({
  endpoints: (build) => ({
    createMixSession: build.mutation<MixSessionAnswer, CreateMixSessionRequest>({
      query: (body) => ({ url: '/mixing/sessions/create', method: 'POST', body }),
    }),
    getMixSession: build.query<MixSessionAnswer, string>({
      query: (id) => `/mixing/sessions/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [sessionTag(id)],
      /** A `mix.status` message for this session (ready, failed, cancelled, unlocked) reloads it. */
      async onCacheEntryAdded(id, { cacheDataLoaded, cacheEntryRemoved, extra, dispatch }) {
        const { realtime } = extra as ApiExtra;
        if (!realtime) return;
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const off = realtime.on('mix.status', (payload) => {
          if (!isStatusMessage(payload) || payload.sessionId !== id || payload.progress !== undefined) return;
          dispatch(mixingApi.util.invalidateTags([sessionTag(id)]));
        });
        await cacheEntryRemoved;
        off();
      },
    }),
    updateMixTrack: build.mutation<
      MixSessionAnswer,
      { trackId: string; sessionId: string; changes: MixTrackSettingsChange }
    >({
      query: ({ trackId, changes }) => ({
        url: `/mixing/tracks/${encodeURIComponent(trackId)}`,
        method: 'PUT',
        body: changes,
      }),
      invalidatesTags: (_result, _error, { sessionId }) => [sessionTag(sessionId)],
    }),
    updateMixSession: build.mutation<BatchSettingsAnswer, { sessionId: string } & BatchSettingsRequest>({
      query: ({ sessionId: _sessionId, ...body }) => ({ url: '/mixing/tracks/batch-settings', method: 'PUT', body }),
      invalidatesTags: (_result, _error, { sessionId }) => [sessionTag(sessionId)],
    }),
    requestMix: build.mutation<MixRequestAnswer, string>({
      query: (id) => ({ url: `/mixing/sessions/${encodeURIComponent(id)}/master`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [sessionTag(id)],
    }),
    cancelMix: build.mutation<SuccessAnswer, string>({
      query: (id) => ({ url: `/mixing/sessions/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [sessionTag(id)],
    }),
    getMixStatus: build.query<MixStatus, string>({
      query: (id) => `/mixing/sessions/${encodeURIComponent(id)}/status`,
      /** Live: the `mix.status` messages for this session (the poll is the fallback). */
      async onCacheEntryAdded(id, { updateCachedData, cacheDataLoaded, cacheEntryRemoved, extra }) {
        const { realtime } = extra as ApiExtra;
        if (!realtime) return;
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const off = realtime.on('mix.status', (payload) => {
          if (!isStatusMessage(payload) || payload.sessionId !== id) return;
          updateCachedData((draft) => {
            draft.status = payload.status;
            if (payload.error !== undefined) draft.error = payload.error ?? null;
            if (typeof payload.progress === 'number') draft.progress = payload.progress;
          });
        });
        await cacheEntryRemoved;
        off();
      },
    }),
    getMixPreview: build.query<MixPreview, string>({
      query: (id) => `/mixing/sessions/${encodeURIComponent(id)}/preview`,
      providesTags: (_result, _error, id) => [sessionTag(id)],
    }),
  }),
});

export const {
  useCreateMixSessionMutation,
  useGetMixSessionQuery,
  useUpdateMixTrackMutation,
  useUpdateMixSessionMutation,
  useRequestMixMutation,
  useCancelMixMutation,
  useGetMixStatusQuery,
  useGetMixPreviewQuery,
} = mixingApi;

/**
 * What the batch of files answered: its status, and the session with its new tracks (201), or the refusal (the
 * server's error answer, or a file's refusal while it was sent); null when no body could be read.
 */
export interface BatchAnswer {
  status: number;
  body: MixSessionAnswer | ErrorAnswer | UploadRefusal | null;
}

/**
 * Sends the mix's files (spec §7): each by the resumable protocol (`/api/uploads`, purpose mix-track: a dropped
 * connection goes on from the server's bytes), then the session takes them, with their settings, in one request
 * (retried once with a renewed token on 401). A refusal of a file is the answer, as the server's would be.
 */
export async function uploadMixTracks(
  session: TokenSource,
  sessionId: string,
  files: readonly File[],
  settings: ReadonlyArray<{ fileName: string } & TrackSettings>,
  onProgress: (progress: SendProgress) => void,
): Promise<BatchAnswer> {
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const uploads: string[] = [];
  let before = 0;
  try {
    for (const file of files) {
      let sentOfFile = 0;
      uploads.push(
        await sendResumable(session, file, {
          metadata: { purpose: 'mix-track', filename: file.name },
          fingerprint: ['kora', 'mix-track', sessionId, file.name, file.size, file.lastModified].join(':'),
          // Of all the files: bytes sent, and the time left at this file's speed; paused while the network is away.
          onProgress: (progress) => {
            if (progress.phase === 'sending') sentOfFile = progress.done;
            const done = before + sentOfFile;
            const remainingMs =
              progress.phase === 'sending' && progress.bytesPerSecond
                ? ((total - done) / progress.bytesPerSecond) * 1000
                : null;
            onProgress({ ...progress, done, total, remainingMs });
          },
        }),
      );
      before += file.size;
    }
  } catch (error) {
    if (error instanceof SendRefusedError) return { status: error.status, body: error.body };
    throw error;
  }
  return postNamingUploads<BatchAnswer['body']>(
    session,
    `/api/mixing/sessions/${encodeURIComponent(sessionId)}/tracks/batch`,
    { uploads, settings },
  );
}

/** A stream of the session as a blob, with the bearer token (the board decodes blobs). */
export async function fetchMixAudio(session: TokenSource, url: string): Promise<Blob> {
  const get = async (forceRefresh: boolean) => {
    const token = await session.getAccessToken({ forceRefresh }).catch(() => null);
    return fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  };
  let response = await get(false);
  if (response.status === 401) response = await get(true);
  if (!response.ok) throw new Error(`Failed to load track (${response.status})`);
  return response.blob();
}
