/**
 * Level-matched A/B (the comparison every mastering engineer makes): the louder side is turned down by the
 * difference of the two integrated loudnesses, so both play at the same loudness and the ear judges tone and
 * dynamics, not level. Only attenuation: a media element's volume cannot go above 1.
 */
export interface AbGains {
  original: number;
  result: number;
  /** How much louder the result is than the original, LU (positive: the result is louder). */
  differenceLu: number;
}

/** Silence and missing measures (null, -Infinity, the report's -70 floor) give unity gains. */
export function levelMatchedGains(
  originalLufs: number | null | undefined,
  resultLufs: number | null | undefined,
): AbGains {
  const usable = (value: number | null | undefined): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value > -70;
  if (!usable(originalLufs) || !usable(resultLufs)) return { original: 1, result: 1, differenceLu: 0 };
  const differenceLu = resultLufs - originalLufs;
  const attenuation = Math.pow(10, -Math.abs(differenceLu) / 20);
  return differenceLu >= 0
    ? { original: 1, result: attenuation, differenceLu }
    : { original: attenuation, result: 1, differenceLu };
}
