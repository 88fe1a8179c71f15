/**
 * Linkwitz-Riley 4th-order crossovers (two cascaded 2nd-order Butterworth sections per side). LR4 low and high
 * outputs are in phase and sum to a 2nd-order all-pass (Q = 1/sqrt 2) at the crossover, so a three-band split
 *   low  = AP(f2) . LP4(f1)      mid = LP4(f2) . HP4(f1)      high = HP4(f2) . HP4(f1)
 * sums back to a flat-magnitude all-pass: bands recombine without ripple when their gains are equal.
 * Mid and high are each computed straight from the input with four sections (HP4(f1) recomputed), which fills the
 * fused four-section kernel and beats sharing an intermediate buffer.
 */
import { type Biquad, BiquadChain, BUTTERWORTH_Q, allpass, highpass, lowpass } from './biquad';

export class ThreeBandSplitter {
  private readonly lowChain: BiquadChain;
  private readonly midChain: BiquadChain;
  private readonly highChain: BiquadChain;

  constructor(f1: number, f2: number, fs: number) {
    const lp1: Biquad = lowpass(f1, fs, BUTTERWORTH_Q);
    const hp1: Biquad = highpass(f1, fs, BUTTERWORTH_Q);
    const lp2: Biquad = lowpass(f2, fs, BUTTERWORTH_Q);
    const hp2: Biquad = highpass(f2, fs, BUTTERWORTH_Q);
    this.lowChain = new BiquadChain([lp1, lp1, allpass(f2, fs, BUTTERWORTH_Q)]);
    this.midChain = new BiquadChain([hp1, hp1, lp2, lp2]);
    this.highChain = new BiquadChain([hp1, hp1, hp2, hp2]);
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
