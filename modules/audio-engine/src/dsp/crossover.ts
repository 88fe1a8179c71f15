/**
 * Linkwitz-Riley 4th-order crossovers (two cascaded 2nd-order Butterworth sections per side). LR4 low and high
 * outputs are in phase and sum to a 2nd-order all-pass (Q = 1/sqrt 2) at the crossover, so a three-band split
 *   low  = AP(f2) . LP4(f1)      mid = LP4(f2) . HP4(f1)      high = HP4(f2) . HP4(f1)
 * sums back to a flat-magnitude all-pass: bands recombine without ripple when their gains are equal.
 * Mid and high are each computed straight from the input with four sections (HP4(f1) recomputed), which fills the
 * fused four-section kernel and beats sharing an intermediate buffer.
 */
import { type Biquad, BiquadChain, BUTTERWORTH_Q, allpass, highpass, lowpass } from './biquad';
import { type StereoCascade, stereoCascade } from './biquad-simd';

export class ThreeBandSplitter {
  private readonly lowChain: BiquadChain;
  private readonly midChain: BiquadChain;
  private readonly highChain: BiquadChain;

  constructor(f1: number, f2: number, fs: number) {
    const { low, mid, high } = splitSections(f1, f2, fs);
    this.lowChain = new BiquadChain(low);
    this.midChain = new BiquadChain(mid);
    this.highChain = new BiquadChain(high);
  }

  /** Splits x[start, end) into low/mid/high, written at offsets 0..end-start of the output arrays. */
  split(x: Float32Array, start: number, end: number, low: Float32Array, mid: Float32Array, high: Float32Array): void {
    const n = end - start;
    const src = x.subarray(start, end);
    this.lowChain.run(src, low, 0, n);
    this.midChain.run(src, mid, 0, n);
    this.highChain.run(src, high, 0, n);
  }
}

function splitSections(f1: number, f2: number, fs: number): { low: Biquad[]; mid: Biquad[]; high: Biquad[] } {
  const lp1: Biquad = lowpass(f1, fs, BUTTERWORTH_Q);
  const hp1: Biquad = highpass(f1, fs, BUTTERWORTH_Q);
  const lp2: Biquad = lowpass(f2, fs, BUTTERWORTH_Q);
  const hp2: Biquad = highpass(f2, fs, BUTTERWORTH_Q);
  return { low: [lp1, lp1, allpass(f2, fs, BUTTERWORTH_Q)], mid: [hp1, hp1, lp2, lp2], high: [hp1, hp1, hp2, hp2] };
}

/**
 * The same split for a stereo pair, both channels at once on the SIMD kernel (biquad-simd.ts; the same results to the
 * bit as a ThreeBandSplitter per channel). `create` returns null where WebAssembly SIMD is missing.
 */
export class StereoThreeBandSplitter {
  private constructor(private readonly chains: readonly [StereoCascade, StereoCascade, StereoCascade]) {}

  static create(f1: number, f2: number, fs: number): StereoThreeBandSplitter | null {
    const { low, mid, high } = splitSections(f1, f2, fs);
    const chains = [stereoCascade(low), stereoCascade(mid), stereoCascade(high)];
    if (!chains[0] || !chains[1] || !chains[2]) return null;
    return new StereoThreeBandSplitter([chains[0], chains[1], chains[2]]);
  }

  /** Splits frames [start, end) of both channels; band k of channel c is written at 0..end-start of out[c][k]. */
  split(
    left: Float32Array,
    right: Float32Array,
    start: number,
    end: number,
    out: readonly [readonly Float32Array[], readonly Float32Array[]],
  ): void {
    for (let k = 0; k < 3; k++) this.chains[k]!.run(left, right, out[0][k]!, out[1][k]!, start, end, 0);
  }
}
