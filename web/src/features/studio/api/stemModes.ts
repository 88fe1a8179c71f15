import { api } from '../../../lib/api';
import { isMixCard, type RecentPage, type Track } from '@kora/contracts';

/**
 * Another stem mode of the same upload (spec §2, "mode buttons to switch stems"): the user's stem separations of the
 * file (to open one made earlier), and a new separation of it in another mode (`reprocess`: a new job from the same
 * original, with its own preview and unlock). Loaded with the stems board, not with the first route.
 */
export const stemModesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStemSeparationsOf: build.query<Track[], string>({
      query: (filename) =>
        `/audio/tracks?${new URLSearchParams({ service: 'STEM_SEPARATION', search: filename, page: '1', limit: '50' })}`,
      // A page of one track service lists tracks only (mixing sessions are listed with no service or AI_MIXING).
      transformResponse: (answer: Partial<RecentPage>) => (answer.tracks ?? []).filter((item) => !isMixCard(item)),
      providesTags: [{ type: 'Track', id: 'LIST' }],
    }),
    separateInMode: build.mutation<Track, { id: string; mode: string }>({
      query: ({ id, mode }) => ({
        url: `/audio/track/${encodeURIComponent(id)}/reprocess`,
        method: 'POST',
        body: { service: 'STEM_SEPARATION', mode },
      }),
      invalidatesTags: [{ type: 'Track', id: 'LIST' }],
    }),
  }),
});

export const { useLazyGetStemSeparationsOfQuery, useSeparateInModeMutation } = stemModesApi;

/**
 * The separation of the same upload in `mode`, if the user has one: same file name, size and length (a reprocess
 * copies the original byte for byte; the server keeps no other link between them), not failed; an unlocked one first,
 * else the newest.
 */
export function sameUploadInMode(
  track: Pick<Track, 'id' | 'filename' | 'fileSize' | 'durationSec'>,
  candidates: readonly Track[],
  mode: string,
): Track | null {
  const matches = candidates.filter(
    (other) =>
      other.id !== track.id &&
      other.mode === mode &&
      other.status !== 'FAILED' &&
      !other.isDemo &&
      other.filename === track.filename &&
      other.fileSize === track.fileSize &&
      Math.abs(other.durationSec - track.durationSec) < 0.01,
  );
  return matches.find((other) => other.unlocked) ?? matches[0] ?? null;
}
