/**
 * The spec's stem vocabulary: which stems each mode produces, and the order stems are listed in ("lead vocals,
 * backing vocals, vocals, drums, kick, snare, hihat, cymbals, toms, bass, guitars, acoustic guitars, electric guitars,
 * piano, keys, strings, wind, the rest alphabetically, other always last").
 */
import type { SeparatedStem, StemMode } from '../types';

export const STEM_ORDER: readonly string[] = [
  'lead_vocals',
  'backing_vocals',
  'vocals',
  'drums',
  'kick_drums',
  'snare_drums',
  'hi_hats',
  'hihat_drums',
  'cymbals',
  'toms',
  'bass',
  'guitars',
  'acoustic_guitars',
  'electric_guitars',
  'piano',
  'keys',
  'strings',
  'wind',
];

/** Sorts stem names in the spec's order: the listed ones first, then the rest alphabetically, `other` last. */
export function sortStems<T extends string>(names: readonly T[]): T[] {
  const rank = (name: string) => {
    if (name === 'other') return Number.MAX_SAFE_INTEGER;
    const i = STEM_ORDER.indexOf(name);
    return i >= 0 ? i : STEM_ORDER.length;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || (rank(a) === STEM_ORDER.length ? a.localeCompare(b) : 0));
}

/** The stems a mode always produces (full mode adds piano and guitars when a model provides them). */
export const MODE_STEMS: Readonly<Record<StemMode, readonly SeparatedStem[]>> = {
  vocals: ['vocals', 'other'],
  drums: ['drums', 'other'],
  guitars: ['guitars', 'other'],
  full: ['vocals', 'drums', 'bass', 'other'],
};
