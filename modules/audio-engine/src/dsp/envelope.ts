/** Envelope and statistics helpers over typed arrays. */

/** One-pole smoothing coefficient for time constant `seconds` at rate `rate`: y += (x - y) * (1 - a). */
export function onePole(seconds: number, rate: number): number {
  return seconds <= 0 ? 0 : Math.exp(-1 / (seconds * rate));
}

/** Percentile (0..1) of the finite values, nearest rank; NaN when there are none. */
export function percentile(values: ArrayLike<number>, p: number): number {
  const finite: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) finite.push(values[i]!);
  if (finite.length === 0) return NaN;
  finite.sort((a, b) => a - b);
  return finite[Math.min(finite.length - 1, Math.max(0, Math.round(p * (finite.length - 1))))]!;
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
