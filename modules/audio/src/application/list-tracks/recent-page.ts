import type { MixCard } from '@kora/contracts';
import type { MixSessionDocument } from '@kora/mixing/contracts';
import { stripTags } from '../tracks/track-view';

/** A mixing session as a card of the recent tracks list (`MixCard` of the contracts). */
export function mixCardView(doc: MixSessionDocument): MixCard {
  const name = stripTags(doc.name);
  return {
    kind: 'mix',
    id: doc._id,
    service: 'AI_MIXING',
    name,
    filename: name,
    trackCount: doc.tracks.length,
    status: doc.status,
    error: doc.error?.message ?? null,
    errorCode: doc.error?.code ?? null,
    unlocked: doc.unlocked,
    isDemo: false,
    mixingStyle: doc.mixingStyle,
    sampleRate: doc.sampleRate,
    createdAt: doc.createdAt,
  };
}

interface Dated {
  createdAt: string;
}

/**
 * How many tracks to read for one page of the list of tracks and mixes together (newest first): the items at
 * positions `[from, to)` of the union are tracks of index `[skip, to)` and mixes among the newest `to`, whatever the
 * mixes' dates. `mixes` is the newest `to` mixes (all of them when there are fewer).
 */
export function trackWindow(from: number, to: number, mixes: number): { skip: number; limit: number } {
  const skip = Math.max(0, from - mixes);
  return { skip, limit: to - skip };
}

/**
 * The items at positions `[from, to)` of tracks and mixes merged newest first (at the same instant a track comes
 * first), given the tracks of index `[skip, to)` (`trackWindow`) and the newest `to` mixes, both newest first.
 * When tracks were skipped, the union before the first one read holds those tracks and the mixes newer than it.
 */
export function recentPage<T extends Dated, M extends Dated>(
  tracks: readonly T[],
  skip: number,
  mixes: readonly M[],
  from: number,
  to: number,
): Array<T | M> {
  let offset = 0;
  let rest = mixes;
  if (skip > 0) {
    // Nothing read past the skipped tracks: with every mix counted, the union ends before this page.
    if (tracks.length === 0) return [];
    const first = tracks[0]!.createdAt;
    rest = mixes.filter((mix) => mix.createdAt <= first);
    offset = skip + mixes.length - rest.length;
  }
  const merged: Array<T | M> = [];
  let t = 0;
  let m = 0;
  while (t < tracks.length || m < rest.length) {
    const track = tracks[t];
    const mix = rest[m];
    if (track && (!mix || track.createdAt >= mix.createdAt)) {
      merged.push(track);
      t += 1;
    } else {
      merged.push(mix!);
      m += 1;
    }
  }
  return merged.slice(from - offset, to - offset);
}
