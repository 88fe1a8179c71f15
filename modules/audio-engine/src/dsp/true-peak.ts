/**
 * True-peak estimation after ITU-R BS.1770-4 Annex 2: oversample by 4 with a polyphase interpolating low-pass and
 * take the largest absolute value.
 *
 * Short interpolation filters attenuate content near Nyquist, and 4x points can straddle a peak, so such meters
 * under-read the inter-sample peaks of bright material (measured here on a limited master: 12 and 24 taps per phase
 * read 0.85 and 1.3 dB below a 64-tap, 8x reference). A limiter steered by such a meter pushes exactly those peaks
 * past its ceiling. This detector therefore uses
 *  - a Kaiser-windowed sinc of 32 taps per phase (flat within 0.1 dB to 0.46 fs, 40 dB image rejection), and
 *  - parabolic refinement of the largest oversampled point with its two neighbours, which removes most of the
 *    residual error from peaks that fall between 4x points (0.55 dB worst case at 0.45 fs without it).
 * Measured against the 64-tap/8x reference on band-limited material the error is within +-0.05 dB. Phase 0 is the
 * sample itself, so the reading is never below the sample peak.
 *
 * Work is skipped where it cannot matter: an interpolated value is bounded by the sum of the absolute taps of its
 * phase times the largest |x| under the kernel, so blocks whose bound lies below the peak already found (or below a
 * caller's threshold) are not interpolated.
 */
import { besselI0, kaiserBeta, windowedSinc } from './sinc';
import { type SimdInterpolator, simdInterpolator } from './simd';

const BLOCK = 64;

export class TruePeakDetector {
  readonly taps: number;
  /** Coefficients of phases 1, 2, 3 (offsets 0, taps, 2 taps), multiplying x[n - taps/2 + 1 + j]. */
  readonly coefs: Float64Array;
  /** max over phases of sum |h|: bound of |interpolated| / max |x| under the kernel. */
  readonly gainBound: number;
  private phases = new Float64Array(0);
  private padded = new Float32Array(0);
  private readonly simd: SimdInterpolator | null;

  constructor(taps = 32, attenuationDb = 40) {
    if (taps % 4 !== 0 || taps > BLOCK) throw new RangeError('taps must be a multiple of 4, at most 64');
    this.taps = taps;
    const beta = kaiserBeta(attenuationDb);
    const i0 = besselI0(beta);
    this.coefs = new Float64Array(3 * taps);
    let bound = 1;
    for (let p = 1; p < 4; p++) {
      const f = p / 4;
      let sum = 0;
      for (let j = 0; j < taps; j++) {
        const v = windowedSinc(f + taps / 2 - 1 - j, 0.5, taps, beta, i0);
        this.coefs[(p - 1) * taps + j] = v;
        sum += v;
      }
      let l1 = 0;
      for (let j = 0; j < taps; j++) {
        const k = (p - 1) * taps + j;
        this.coefs[k] = this.coefs[k]! / sum; // unity gain at DC
        l1 += Math.abs(this.coefs[k]!);
      }
      bound = Math.max(bound, l1);
    }
    this.gainBound = bound;
    this.simd = simdInterpolator(this.coefs, taps);
  }

  /**
   * The three interpolated values between n and n+1 for n in [from, to), into phases[3 (n - from) + p]. Samples
   * outside x count as zero.
   */
  private interpolate(x: Float32Array, from: number, to: number): Float64Array {
    const T = this.taps;
    const half = T / 2 - 1;
    const count = to - from;
    if (this.phases.length < 3 * count) this.phases = new Float64Array(3 * count);
    const out = this.phases;
    const len = x.length;
    if (this.simd) {
      // Taps of output n are x[n - half + j]: copy x[from - half ..] with zeros beyond the array's ends.
      const need = count + T + 8;
      if (this.padded.length < need) this.padded = new Float32Array(need);
      const pad = this.padded;
      const first = from - half;
      const lo = Math.max(0, first);
      const hi = Math.min(len, first + need);
      pad.fill(0, 0, Math.max(0, lo - first));
      if (hi > lo) pad.set(x.subarray(lo, hi), lo - first);
      pad.fill(0, Math.max(0, hi - first), need);
      this.simd.run(pad, count, out);
      return out;
    }
    const c = this.coefs;
    for (let n = from, o = 0; n < to; n++, o += 3) {
      const base = n - half;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      if (base >= 0 && base + T <= len) {
        for (let j = 0; j < T; j++) {
          const v = x[base + j]!;
          s0 += c[j]! * v;
          s1 += c[T + j]! * v;
          s2 += c[2 * T + j]! * v;
        }
      } else {
        for (let j = 0; j < T; j++) {
          const k = base + j;
          if (k < 0 || k >= len) continue;
          const v = x[k]!;
          s0 += c[j]! * v;
          s1 += c[T + j]! * v;
          s2 += c[2 * T + j]! * v;
        }
      }
      out[o] = s0;
      out[o + 1] = s1;
      out[o + 2] = s2;
    }
    return out;
  }

  /**
   * Peak of |x(t)| for t in [n, n+1) for n in [from, to): the largest of the 4x points x[n], p1, p2, p3, refined
   * with a parabola through it and its neighbours (the point before x[n] is phase 3 of n-1; the one after p3 is
   * x[n+1]). Writes into `out` when given; returns the largest value (at least `floor`).
   */
  private refineRun(
    x: Float32Array,
    from: number,
    to: number,
    ph: Float64Array,
    out: Float32Array | null,
    floor: number,
  ): number {
    const len = x.length;
    let best = floor;
    let prev = from > 0 ? Math.abs(this.pointBefore(x, from)) : 0;
    for (let n = from, o = 0; n < to; n++, o += 3) {
      const a0 = Math.abs(x[n]!);
      const a1 = Math.abs(ph[o]!);
      const a2 = Math.abs(ph[o + 1]!);
      const a3 = Math.abs(ph[o + 2]!);
      const a4 = n + 1 < len ? Math.abs(x[n + 1]!) : 0;
      // Largest of a0..a3 and its neighbours.
      let y1 = a0;
      let y0 = prev;
      let y2 = a1;
      if (a1 > y1) {
        y1 = a1;
        y0 = a0;
        y2 = a2;
      }
      if (a2 > y1) {
        y1 = a2;
        y0 = a1;
        y2 = a3;
      }
      if (a3 > y1) {
        y1 = a3;
        y0 = a2;
        y2 = a4;
      }
      let v = y1;
      // Vertex of the parabola through (-1, y0), (0, y1), (1, y2) when y1 is a local maximum.
      if (y1 >= y0 && y1 >= y2) {
        const den = y0 - 2 * y1 + y2;
        if (den < 0) {
          const d = (0.5 * (y0 - y2)) / den;
          const peak = y1 - 0.25 * (y0 - y2) * d;
          if (peak > v) v = peak;
        }
      }
      if (out) out[n] = v;
      if (v > best) best = v;
      prev = a3;
    }
    return best;
  }

  private pointBefore(x: Float32Array, n: number): number {
    const T = this.taps;
    const base = n - 1 - (T / 2 - 1);
    const c = this.coefs;
    let s = 0;
    for (let j = 0; j < T; j++) {
      const k = base + j;
      if (k >= 0 && k < x.length) s += c[2 * T + j]! * x[k]!;
    }
    return s;
  }

  /** max |x| per block of [start, end), plus one entry before and after for the samples the kernel reaches. */
  private blockMaxima(x: Float32Array, start: number, end: number): Float32Array {
    const blocks = Math.ceil((end - start) / BLOCK);
    const maxima = new Float32Array(blocks + 2);
    const reach = this.taps;
    let m = 0;
    for (let i = Math.max(0, start - reach); i < start; i++) {
      const a = Math.abs(x[i]!);
      if (a > m) m = a;
    }
    maxima[0] = m;
    for (let b = 0; b < blocks; b++) {
      const s = start + b * BLOCK;
      const e = Math.min(end, s + BLOCK);
      m = 0;
      for (let i = s; i < e; i++) {
        const v = x[i]!;
        const a = v < 0 ? -v : v;
        if (a > m) m = a;
      }
      maxima[b + 1] = m;
    }
    m = 0;
    for (let i = end; i < Math.min(x.length, end + reach); i++) {
      const a = Math.abs(x[i]!);
      if (a > m) m = a;
    }
    maxima[blocks + 1] = m;
    return maxima;
  }

  /**
   * Largest |x(t)| over samples [start, end) (linear, 1.0 = 0 dBFS). `floor` is a peak already known (e.g. from
   * earlier chunks): blocks that cannot exceed it are skipped.
   */
  maxAbs(x: Float32Array, start = 0, end = x.length, floor = 0, hint?: PeakHint): number {
    const maxima = this.blockMaxima(x, start, end);
    const blocks = maxima.length - 2;
    let best = floor;
    for (let b = 1; b <= blocks; b++) if (maxima[b]! > best) best = maxima[b]!;
    const bound = this.gainBound;
    const needs = (b: number) => {
      if (Math.max(maxima[b]!, maxima[b + 1]!, maxima[b + 2]!) * bound <= best) return false;
      const s = start + b * BLOCK;
      return !hint || hint(s, Math.min(end, s + BLOCK)) >= best;
    };
    for (let b = 0; b < blocks;) {
      if (!needs(b)) {
        b++;
        continue;
      }
      // A run of consecutive blocks in one call (decided against the peak known when the run starts).
      let last = b;
      while (last + 1 < blocks && last - b < 63 && needs(last + 1)) last++;
      const s = start + b * BLOCK;
      const e = Math.min(end, start + (last + 1) * BLOCK);
      best = this.refineRun(x, s, e, this.interpolate(x, s, e), null, best);
      b = last + 1;
    }
    return best;
  }

  /**
   * Per-sample true-peak envelope: out[n] = peak of |x(t)| for t in [n, n+1). Where the bound shows nothing can
   * exceed `threshold`, out[n] = |x[n]| (still <= threshold there).
   */
  envelope(x: Float32Array, out: Float32Array, start = 0, end = x.length, threshold = 0): void {
    const maxima = this.blockMaxima(x, start, end);
    const blocks = maxima.length - 2;
    const bound = this.gainBound;
    const needs = (b: number) => Math.max(maxima[b]!, maxima[b + 1]!, maxima[b + 2]!) * bound > threshold;
    for (let b = 0; b < blocks;) {
      const s = start + b * BLOCK;
      if (!needs(b)) {
        const e = Math.min(end, s + BLOCK);
        for (let n = s; n < e; n++) {
          const v = x[n]!;
          out[n] = v < 0 ? -v : v;
        }
        b++;
        continue;
      }
      // Interpolate a run of consecutive blocks in one call (up to 64 blocks).
      let last = b;
      while (last + 1 < blocks && last - b < 63 && needs(last + 1)) last++;
      const e = Math.min(end, start + (last + 1) * BLOCK);
      this.refineRun(x, s, e, this.interpolate(x, s, e), out, 0);
      b = last + 1;
    }
  }
}

/**
 * An upper estimate of the true peak over samples [start, end) known from elsewhere (e.g. the limiter's own
 * prediction of its output), used to skip blocks that cannot hold the maximum. Must already include its margin.
 */
export type PeakHint = (start: number, end: number) => number;

let shared: TruePeakDetector | null = null;
/** The engine's standard detector (32 taps per phase, 4x, parabolic refinement). */
export function truePeakDetector(): TruePeakDetector {
  shared ??= new TruePeakDetector();
  return shared;
}

/** True peak of a whole signal, linear. */
export function truePeak(x: Float32Array): number {
  return truePeakDetector().maxAbs(x);
}
