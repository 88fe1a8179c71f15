/**
 * The spec's stem order (§4): "lead vocals, backing vocals, vocals, drums, kick, snare, hihat, cymbals, toms, bass,
 * guitars, acoustic guitars, electric guitars, piano, keys, strings, wind, the rest alphabetically, other always
 * last", over the stem type keys of §3 (`hi_hats` and its alias `hihat_drums` share a rank).
 */
const LISTED: ReadonlyArray<readonly string[]> = [
  ['lead_vocals'],
  ['backing_vocals'],
  ['vocals'],
  ['drums'],
  ['kick_drums', 'kick'],
  ['snare_drums', 'snare'],
  ['hi_hats', 'hihat_drums', 'hihat'],
  ['cymbals'],
  ['toms'],
  ['bass'],
  ['guitars'],
  ['acoustic_guitars'],
  ['electric_guitars'],
  ['piano'],
  ['keys'],
  ['strings'],
  ['wind'],
];

const RANK: ReadonlyMap<string, number> = new Map(LISTED.flatMap((names, rank) => names.map((name) => [name, rank])));
const UNLISTED = LISTED.length;
const LAST = UNLISTED + 1;

function rank(stem: string): number {
  if (stem === 'other') return LAST;
  return RANK.get(stem) ?? UNLISTED;
}

/** Stem types in the spec's order: the listed ones first, then the rest alphabetically, `other` always last. */
export function orderStems(stems: Iterable<string>): string[] {
  return [...stems].sort((a, b) => rank(a) - rank(b) || (rank(a) === UNLISTED ? a.localeCompare(b, 'en') : 0));
}
