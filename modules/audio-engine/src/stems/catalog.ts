/**
 * The stems each mode produces. The spec's order of stems ("lead vocals, backing vocals, vocals, drums, kick, snare,
 * hihat, cymbals, toms, bass, guitars, acoustic guitars, electric guitars, piano, keys, strings, wind, the rest
 * alphabetically, other always last") is in `types.ts` (`STEM_ORDER`, `sortStems`), where the web client reads it too.
 */
import type { SeparatedStem, StemMode } from '../types';

export { STEM_ORDER, sortStems } from '../types';

/** The stems a mode always produces (full mode adds piano and guitars when a model provides them). */
export const MODE_STEMS: Readonly<Record<StemMode, readonly SeparatedStem[]>> = {
  vocals: ['vocals', 'other'],
  drums: ['drums', 'other'],
  guitars: ['guitars', 'other'],
  full: ['vocals', 'drums', 'bass', 'other'],
};
