import {
  isMixCard,
  type LibraryAnswer,
  type RecentPage,
  type SuccessAnswer,
  type Track,
  type TrackOptions,
} from '@kora/contracts';
import { api, type ApiExtra } from '../../../lib/api';

export interface RecentTracksArgs {
  page: number;
  limit: number;
  search: string;
}

/** The earlier upload's track, and the new job's service and options (the contract's, as an upload takes them). */
export type ReprocessArgs = { id: string } & TrackOptions;

const TRACK_LIST = { type: 'Track' as const, id: 'LIST' };
const LIBRARY = { type: 'Library' as const, id: 'LIST' };

export const libraryApi = api.enhanceEndpoints({ addTagTypes: ['Track', 'Library'] }).injectEndpoints({
  endpoints: (build) => ({
    /**
     * A page of the user's own tracks and mixing sessions (demos hidden), newest first; `search` on the file (or
     * mix) name, any case.
     */
    getRecentTracks: build.query<RecentPage, RecentTracksArgs>({
      query: ({ page, limit, search }) => {
        const params = new URLSearchParams({ page: String(page), limit: String(limit) });
        if (search.trim()) params.set('search', search.trim());
        return `/audio/tracks?${params}`;
      },
      transformResponse: (answer: Partial<RecentPage>, _meta, args) => ({
        tracks: answer.tracks ?? [],
        totalCount: answer.totalCount ?? answer.tracks?.length ?? 0,
        page: answer.page ?? args.page,
        limit: answer.limit ?? args.limit,
      }),
      providesTags: (result) => [
        ...(result?.tracks ?? []).map((track) => ({ type: 'Track' as const, id: track.id })),
        TRACK_LIST,
      ],
      /** A track's status moving on the socket (or a resync) refreshes the list. */
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved, dispatch, extra }) {
        const { realtime } = extra as ApiExtra;
        if (!realtime) return;
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const refresh = () => dispatch(libraryApi.util.invalidateTags([TRACK_LIST, LIBRARY]));
        // Only when a status moves: a running job's progress, twice a second, changes nothing the list shows.
        const seen = new Map<string, unknown>();
        const onStatus = (key: 'trackId' | 'sessionId') => (payload: unknown) => {
          const message = (payload ?? {}) as Record<string, unknown>;
          const id = message[key];
          if (typeof id === 'string' && seen.has(id) && seen.get(id) === message.status) return;
          if (typeof id === 'string') seen.set(id, message.status);
          refresh();
        };
        const offStatus = realtime.on('track.status', onStatus('trackId'));
        const offMix = realtime.on('mix.status', onStatus('sessionId'));
        const offResync = realtime.on('resync', () => {
          seen.clear();
          refresh();
        });
        await cacheEntryRemoved;
        offStatus();
        offMix();
        offResync();
      },
    }),
    /** The account's demo track for a service (provisioned by the server at sign-up), or null while there is none. */
    getDemoTrack: build.query<Track | null, string>({
      query: (service) => `/audio/tracks?${new URLSearchParams({ isDemo: 'true', service, page: '1', limit: '1' })}`,
      // A page of demos lists tracks only (no mixing session is a demo).
      transformResponse: (answer: Partial<RecentPage>) => answer.tracks?.find((item) => !isMixCard(item)) ?? null,
      providesTags: (_result, _error, service) => [{ type: 'Track', id: `DEMO-${service}` }],
    }),
    deleteTrack: build.mutation<SuccessAnswer, string>({
      query: (id) => ({ url: `/audio/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Track', id }, TRACK_LIST, LIBRARY],
    }),
    cancelTrack: build.mutation<SuccessAnswer, string>({
      query: (id) => ({ url: `/audio/track/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Track', id }, TRACK_LIST],
    }),
    /**
     * The media library: the user's uploads, copies of one file ("x (n)", the same size) collapsed into the newest.
     * For a service (and preset), only the files it takes; `hidden` counts the others.
     */
    getLibrary: build.query<LibraryAnswer, { service?: string; preset?: string } | void>({
      query: (choice) => {
        const params = new URLSearchParams();
        if (choice?.service) params.set('service', choice.service);
        if (choice?.preset) params.set('preset', choice.preset);
        const query = params.toString();
        return query ? `/audio/library?${query}` : '/audio/library';
      },
      transformResponse: (answer: Partial<LibraryAnswer>) => ({
        tracks: answer.tracks ?? [],
        hidden: typeof answer.hidden === 'number' ? answer.hidden : 0,
      }),
      providesTags: [LIBRARY],
    }),
    /** Starts a new job for `service` from an earlier upload: the answer is the new track. */
    reprocessTrack: build.mutation<Track, ReprocessArgs>({
      query: ({ id, ...body }) => ({
        url: `/audio/track/${encodeURIComponent(id)}/reprocess`,
        method: 'POST',
        body,
      }),
      invalidatesTags: [TRACK_LIST, LIBRARY],
    }),
  }),
});

export const {
  useGetRecentTracksQuery,
  useGetDemoTrackQuery,
  useDeleteTrackMutation,
  useCancelTrackMutation,
  useGetLibraryQuery,
  useReprocessTrackMutation,
} = libraryApi;
