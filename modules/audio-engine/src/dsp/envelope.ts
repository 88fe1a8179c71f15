/** Envelope and statistics helpers over typed arrays. */

/** One-pole smoothing coefficient for time constant `seconds` at rate `rate`: y += (x - y) * (1 - a). */
export function onePole(seconds: number, rate: number): number {
  return seconds <= 0 ? 0 : Math.exp(-1 / (seconds * rate));
}

/** Percentile (0..1) of the finite values, nearest rank; NaN when there are none. */
export function percentile(values: ArrayLike<number>, p: number): number {
  // A typed array sorts numerically without a comparator callback (several times faster on long series).
  const finite = new Float64Array(values.length);
  let count = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) finite[count++] = values[i]!;
  if (count === 0) return NaN;
  const sorted = finite.subarray(0, count).sort();
  return sorted[Math.min(count - 1, Math.max(0, Math.round(p * (count - 1))))]!;
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** Multiplies x[i0..i1) by a gain ramping linearly from prev + step (a gain curve applied one control step at a time). */
export function applyRamp(x: Float32Array, i0: number, i1: number, prev: number, step: number): void {
  for (let i = i0, gi = prev + step; i < i1; i++, gi += step) x[i] = x[i]! * gi;
}
