/**
 * The board's colours (spec §9: palettes of 5 and 15 colours). The 15 colours give each stem type of §3 its own
 * colour; the 5 colour the numbered mix tracks (`track1`..`track10`, at most 5 per mix). Each one is light enough to
 * read against the dark surface and dark enough against the light one (3:1 for graphics).
 */
export const STEM_PALETTE = [
  '#e8590c', // vocals
  '#d6336c', // drums
  '#7950f2', // bass
  '#1c7ed6', // piano
  '#2f9e44', // guitars
  '#0c8599', // strings
  '#5c7cfa', // wind
  '#ae3ec9', // keys
  '#868e96', // other
  '#f03e3e', // lead vocals
  '#f76707', // backing vocals
  '#c2255c', // kick
  '#a61e4d', // snare
  '#e67700', // hi-hats and cymbals
  '#37b24d', // acoustic / electric guitars
] as const;

export const TRACK_PALETTE = ['#e8590c', '#1c7ed6', '#2f9e44', '#ae3ec9', '#d6336c'] as const;

const BY_STEM: Readonly<Record<string, string>> = {
  vocals: STEM_PALETTE[0],
  drums: STEM_PALETTE[1],
  bass: STEM_PALETTE[2],
  piano: STEM_PALETTE[3],
  guitars: STEM_PALETTE[4],
  strings: STEM_PALETTE[5],
  wind: STEM_PALETTE[6],
  keys: STEM_PALETTE[7],
  other: STEM_PALETTE[8],
  lead_vocals: STEM_PALETTE[9],
  backing_vocals: STEM_PALETTE[10],
  kick_drums: STEM_PALETTE[11],
  snare_drums: STEM_PALETTE[12],
  hi_hats: STEM_PALETTE[13],
  hihat_drums: STEM_PALETTE[13],
  cymbals: STEM_PALETTE[13],
  toms: STEM_PALETTE[12],
  acoustic_guitars: STEM_PALETTE[14],
  electric_guitars: STEM_PALETTE[4],
  original: '#adb5bd',
};

/** A stem's colour: its own for the spec's types, a mix track's by number, else one picked by its name. */
export function stemColour(stem: string): string {
  const known = BY_STEM[stem];
  if (known) return known;
  const track = /^track(\d+)$/.exec(stem);
  if (track) return TRACK_PALETTE[(Math.max(1, Number(track[1])) - 1) % TRACK_PALETTE.length] ?? TRACK_PALETTE[0];
  let hash = 0;
  for (const char of stem) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return STEM_PALETTE[hash % STEM_PALETTE.length] ?? STEM_PALETTE[8];
}
