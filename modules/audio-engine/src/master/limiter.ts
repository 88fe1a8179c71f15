/**
 * Look-ahead true-peak limiter with loudness-targeted input gain.
 *
 * Detection: the stereo-linked 4x-oversampled peak envelope p[n] (dsp/true-peak), computed once. For an input gain G
 * the gain each sample needs is req[n] = min(1, c / (G p[n])) for ceiling c. The applied gain is
 *   m[n] = min(req[n - W + 1 .. n])            window W = lookahead La + guard K + hold H
 *   r[n] = min(m[n], r[n-1] + (1 - r[n-1]) a)   instant attack, exponential release (a from the release time)
 *   b[n] = mean(r[n - La + 1 .. n])             La-sample moving average: a smooth (raised) attack ramp
 *   g[t] = b[t + La - 1 + K]                    aligned: the ramp ends K samples before the peak
 * and g[t] <= req[t0] for every t in [t0 - K, t0 + H], because each r averaged into b[t + La - 1 + K] is a minimum
 * over a window that contains t0. The guard K (16 samples, more than half the detector's kernel) keeps the gain flat
 * across the interpolation kernel around each peak: without it the gain still ramping under the kernel adds up to
 * 0.1 dB of overshoot (measured). So the oversampled output stays under c up to the detector's error, which the chain
 * covers with a small margin and a final measurement.
 *
 * Because p[n] does not depend on G, the search for the gain that lands the output on a loudness target only
 * recomputes g (cheap) and the output's K-weighted energy, approximated as (G g[n])^2 times the precomputed
 * K-weighted input: the K filter's short impulse response barely sees the slow gain changes. The chain then
 * measures the real output and corrects the residual.
 *
 * A ride (`setRide`): a slow per-sample gain r[n] on the input, as reference mastering's leveler puts before the
 * limiter. The envelope of r[n] x[n] is r[n] p[n] (r moves by a few hundredths of a dB across the detector's kernel),
 * so the envelope is not detected again: the gain curve reads r p, and the curves it answers carry the ride (g r), so
 * that every later step (loudness estimate, measure, render, predicted peaks) applies it with the gain.
 */
import { biquadRun, biquadState } from '../dsp/biquad';
import { stereoCascade } from '../dsp/biquad-simd';
import { onePole } from '../dsp/envelope';
import { TruePeakDetector } from '../dsp/true-peak';
import {
  LoudnessAccumulator,
  blockEnergies,
  channelWeights,
  integratedLoudness,
  kWeighting,
} from '../analysis/loudness';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';

export interface LimiterParams {
  /** Ceiling, dBTP. */
  ceilingDb: number;
  /** Look-ahead (attack ramp) in seconds. */
  lookahead: number;
  /** Hold after a peak before release starts, seconds. */
  hold: number;
  /** Release time constant, seconds. */
  release: number;
}

export interface GainStats {
  maxReductionDb: number;
  /** Mean gain reduction over the samples that are limited at all, dB. */
  meanReductionDb: number;
  /** Fraction of samples with any gain reduction (> 0.05 dB). */
  limitedFraction: number;
}

const CHUNK = 65536;

/** The rates a gain search runs at: every sample, or the envelope's maxima over blocks of 4 or 16. */
export type Decimation = 1 | 4 | 16;
/** Samples of flat gain kept before each peak, covering half the detector's interpolation kernel. */
const KERNEL_GUARD = 16;

/**
 * The limiter's detector: 24 taps per phase. On signals band-limited to 0.465 fs (normalize.ts does that first) it
 * reads within 0.05 dB of a 64-tap reference (measured on bright synthetic music), inside the ceiling margin, for
 * three quarters of the cost of the 32-tap metering detector; the output is then measured with the latter.
 */
let detector: TruePeakDetector | null = null;
function limiterDetector(): TruePeakDetector {
  detector ??= new TruePeakDetector(24, 50);
  return detector;
}

export class TruePeakLimiter {
  readonly envelope: Float32Array;
  private readonly n: number;
  private kWeighted: { energy: Float32Array; blocks: Float64Array; blocks16: Float64Array } | null = null;
  private ride: Float32Array | null = null;
  readonly ceiling: number;

  constructor(
    private readonly pcm: Pcm,
    readonly params: LimiterParams,
  ) {
    this.n = frameCount(pcm);
    this.envelope = new Float32Array(this.n);
    this.ceiling = Math.pow(10, params.ceilingDb / 20);
  }

  /**
   * Computes the peak envelope. Samples whose oversampled peak cannot exceed c / maxGain (the largest gain that will
   * be tried) keep |x| as their envelope: they are never limited either way. `scratch`, when given, is overwritten.
   */
  async prepare(maxGain: number, tick?: Tick, scratch?: Float32Array): Promise<void> {
    const det = limiterDetector();
    const threshold = this.ceiling / maxGain;
    // `scratch` (at least n samples, overwritten) spares a fresh whole-song array: ~0.2 s of page faults a channel.
    const tmp = scratch && scratch.length >= this.n ? scratch : new Float32Array(this.n);
    const chs = this.pcm.channels;
    for (let c = 0; c < chs.length; c++) {
      const x = chs[c]!;
      const target = c === 0 ? this.envelope : tmp;
      for (let s = 0; s < this.n; s += CHUNK) {
        const e = Math.min(this.n, s + CHUNK);
        det.envelope(x, target, s, e, threshold);
        if (c > 0) for (let i = s; i < e; i++) if (tmp[i]! > this.envelope[i]!) this.envelope[i] = tmp[i]!;
        if (tick) await tick((c + e / this.n) / chs.length);
      }
    }
  }

  /**
   * Puts `ride` (a gain per sample, or none) on the input from the next gain curve on: the curves then answer the
   * limiter's gain times the ride. The envelope must cover the ride's largest gain (`prepare`'s `maxGain`).
   */
  setRide(ride: Float32Array | null): void {
    if (ride && ride.length < this.n) throw new Error('a ride per sample of the input');
    this.ride = ride;
    this.coarse.clear();
  }

  /**
   * The input's K-weighted energy per sample (the channels summed with the meter's weights), and per block of 4
   * and of 16 samples, for loudness estimates during the gain search.
   */
  async prepareLoudness(tick?: Tick): Promise<void> {
    const [shelf, rlb] = kWeighting(this.pcm.sampleRate);
    const chs = this.pcm.channels;
    const weights = channelWeights(chs.length);
    const energy = new Float32Array(this.n);
    const y = chs.map(() => new Float32Array(CHUNK));
    // A stereo pair on the SIMD kernel, rounded after each section as the two passes below: the same to the bit.
    const stereo = chs.length === 2 ? stereoCascade([shelf, rlb], { roundEachSection: true }) : null;
    const states = chs.map(() => [biquadState(), biquadState()] as const);
    for (let s = 0; s < this.n; s += CHUNK) {
      const e = Math.min(this.n, s + CHUNK);
      if (stereo) stereo.run(chs[0]!, chs[1]!, y[0]!, y[1]!, s, e, 0);
      else
        chs.forEach((x, c) => {
          const [first, second] = states[c]!;
          biquadRun(shelf, first, x.subarray(s, e), y[c]!, 0, e - s);
          biquadRun(rlb, second, y[c]!, y[c]!, 0, e - s);
        });
      for (let c = 0; c < chs.length; c++) {
        const w = weights[c]!;
        const yc = y[c]!;
        if (w !== 0) for (let i = s; i < e; i++) energy[i] = energy[i]! + w * yc[i - s]! * yc[i - s]!;
      }
      if (tick) await tick(e / this.n);
    }
    const blocks = new Float64Array(Math.ceil(this.n / 4));
    for (let i = 0; i < this.n; i++) blocks[i >> 2] = blocks[i >> 2]! + energy[i]!;
    const blocks16 = new Float64Array(Math.ceil(this.n / 16));
    for (let k = 0; k < blocks.length; k++) blocks16[k >> 2] = blocks16[k >> 2]! + blocks[k]!;
    this.kWeighted = { energy, blocks, blocks16 };
  }

  /**
   * Fills `g` with the limiter gain for input gain `gain` (linear), times the ride when there is one, and returns
   * the limiter's reduction statistics.
   */
  gainCurve(gain: number, g: Float32Array, decimation: Decimation = 1): GainStats {
    // The peaks the gain is computed from (times `scale`, the ride at full rate) and the ride the curve carries.
    const coarse = decimation === 1 ? null : this.coarseEnvelope(decimation);
    const envelope = coarse ? coarse.peaks : this.envelope;
    const scale = coarse ? null : this.ride;
    const ride = coarse ? coarse.ride : this.ride;
    const n = envelope.length;
    const fs = this.pcm.sampleRate / decimation;
    const la = Math.max(1, Math.round(this.params.lookahead * fs));
    const guard = Math.ceil(KERNEL_GUARD / decimation);
    const w = la + guard + Math.max(0, Math.round(this.params.hold * fs));
    const a = 1 - onePole(this.params.release, fs);
    const c = this.ceiling / gain;
    // Ring-buffer monotonic deque for the sliding minimum.
    let cap = 1;
    while (cap < w + 1) cap <<= 1;
    const mask = cap - 1;
    const dIdx = new Int32Array(cap);
    const dVal = new Float64Array(cap);
    let head = 0;
    let tail = 0;
    const ring = new Float64Array(la).fill(1);
    let slot = 0;
    let sum = la;
    let r = 1;
    let minGain = 1;
    let limited = 0;
    let reductionSum = 0;
    const total = n + la - 1 + guard;
    for (let k = 0; k < total; k++) {
      const p = k >= n ? 0 : scale === null ? envelope[k]! : envelope[k]! * scale[k]!;
      const v = p > c ? c / p : 1;
      while (tail !== head && dVal[(tail - 1) & mask]! >= v) tail = (tail - 1) & mask;
      dIdx[tail] = k;
      dVal[tail] = v;
      tail = (tail + 1) & mask;
      if (dIdx[head]! <= k - w) head = (head + 1) & mask;
      const m = dVal[head]!;
      const released = r + (1 - r) * a;
      r = m < released ? m : released;
      sum += r - ring[slot]!;
      ring[slot] = r;
      if (++slot === la) slot = 0;
      const t = k - la + 1 - guard;
      if (t >= 0) {
        const b = sum / la;
        g[t] = ride === null ? b : b * ride[t]!;
        if (b < minGain) minGain = b;
        if (b < 0.99426) {
          // 0.05 dB
          limited++;
          if ((t & 15) === 0) reductionSum += -20 * Math.log10(b) * 16;
        }
      }
    }
    return {
      maxReductionDb: -20 * Math.log10(minGain),
      meanReductionDb: limited ? reductionSum / limited : 0,
      limitedFraction: limited / Math.max(1, n),
    };
  }

  /**
   * Envelope maxima over blocks of `d` samples (an upper bound at a d-th of the rate), for fast gain searches: of
   * the ridden input when there is a ride, which is then carried at that rate (each block's first gain).
   */
  private coarse = new Map<Decimation, { peaks: Float32Array; ride: Float32Array | null }>();
  private coarseEnvelope(d: Decimation): { peaks: Float32Array; ride: Float32Array | null } {
    const known = this.coarse.get(d);
    if (known) return known;
    const e = this.envelope;
    const r = this.ride;
    const peaks = new Float32Array(Math.ceil(this.n / d));
    const ride = r === null ? null : new Float32Array(peaks.length);
    for (let k = 0; k < peaks.length; k++) {
      const i = d * k;
      const end = Math.min(this.n, i + d);
      let peak = 0;
      if (r === null) for (let j = i; j < end; j++) peak = e[j]! > peak ? e[j]! : peak;
      else {
        for (let j = i; j < end; j++) peak = Math.max(peak, e[j]! * r[j]!);
        ride![k] = r[i]!;
      }
      peaks[k] = peak;
    }
    const coarse = { peaks, ride };
    this.coarse.set(d, coarse);
    return coarse;
  }

  /**
   * Integrated loudness (LUFS) the output would have with input gain `gain` and limiter gain `g` (at full rate, or
   * at a quarter or a sixteenth of it, `decimation`: each block counted in the 100 ms step it begins in).
   */
  estimateLoudness(gain: number, g: Float32Array, decimation: Decimation = 1): number {
    const { steps, hop } = this.estimateSteps(gain, g, decimation);
    return integratedLoudness(blockEnergies(steps, hop, 4)).lufs;
  }

  /** The K-weighted energies of the 100 ms steps `estimateLoudness` reads. */
  estimateSteps(gain: number, g: Float32Array, decimation: Decimation = 1): { steps: Float64Array; hop: number } {
    const y = this.kWeighted;
    if (!y) throw new Error('prepareLoudness() first');
    const hop = Math.round(this.pcm.sampleRate / 10);
    const steps = new Float64Array(Math.floor(this.n / hop));
    const energy = decimation === 1 ? y.energy : decimation === 4 ? y.blocks : y.blocks16;
    for (let s = 0; s < steps.length; s++) {
      let e = 0;
      const end = Math.ceil(((s + 1) * hop) / decimation);
      for (let i = Math.ceil((s * hop) / decimation); i < end; i++) {
        const v = g[i]!;
        e += v * v * energy[i]!;
      }
      steps[s] = e * gain * gain;
    }
    return { steps, hop };
  }

  /**
   * Turns the gain curve `g` into the predicted peak of the output, in place: gain * g[n] * p[n] (the limiter's
   * own view of its output's true-peak envelope, used to skip blocks when the output is measured; a ride is in g).
   */
  predictPeaks(gain: number, g: Float32Array): Float32Array {
    const p = this.envelope;
    for (let i = 0; i < this.n; i++) g[i] = gain * g[i]! * p[i]!;
    return g;
  }

  /**
   * Integrated loudness of the limited output gain * g[n] * x[n], measured with the BS.1770 meter chunk by chunk
   * (the output is not materialised).
   */
  measure(gain: number, g: Float32Array): number {
    const { steps, hop } = this.measureSteps(gain, g);
    return integratedLoudness(blockEnergies(steps, hop, 4)).lufs;
  }

  /** The K-weighted energies of the limited output's 100 ms steps, as `measure` reads them. */
  measureSteps(gain: number, g: Float32Array): { steps: Float64Array; hop: number } {
    const chs = this.pcm.channels;
    const acc = new LoudnessAccumulator(this.pcm.sampleRate, chs.length);
    const tmp = chs.map(() => new Float32Array(CHUNK));
    for (let s = 0; s < this.n; s += CHUNK) {
      const e = Math.min(this.n, s + CHUNK);
      for (let c = 0; c < chs.length; c++) {
        const x = chs[c]!;
        const t = tmp[c]!;
        for (let i = s; i < e; i++) t[i - s] = x[i]! * gain * g[i]!;
      }
      acc.add(tmp, 0, e - s);
    }
    return { steps: acc.steps(), hop: acc.hop };
  }

  /** Writes gain * g[n] * x[n] into `out` (may be the input). */
  async apply(gain: number, g: Float32Array, out: Pcm, tick?: Tick): Promise<void> {
    const chs = this.pcm.channels;
    for (let c = 0; c < chs.length; c++) {
      const x = chs[c]!;
      const y = out.channels[c]!;
      for (let s = 0; s < this.n; s += CHUNK) {
        const e = Math.min(this.n, s + CHUNK);
        for (let i = s; i < e; i++) y[i] = x[i]! * gain * g[i]!;
        if (tick) await tick((c + e / this.n) / chs.length);
      }
    }
  }

  release(): void {
    this.kWeighted = null;
    this.coarse.clear();
  }
}

export interface LoudnessSearch {
  gainDb: number;
  estimatedLufs: number;
  iterations: number;
  /** LU of loudness per dB of input gain where the search ended (its last secant's; the first step's when none). */
  slope: number;
  stats: GainStats;
}

/**
 * Finds the input gain (dB) for which the limited output reaches `targetLufs`, by secant steps on the monotone
 * function gain -> loudness, starting from the static gain `startDb` (exact if the limiter did nothing). `g` receives
 * the final gain curve (at a quarter or a sixteenth of the rate with a `decimation`: the coarse searches that
 * precede the exact one). The first step assumes `initialSlope` LU per dB (1: no limiting), the later ones the
 * secant's.
 */
export async function searchGain(
  limiter: TruePeakLimiter,
  targetLufs: number,
  startDb: number,
  maxDb: number,
  g: Float32Array,
  tick?: Tick,
  decimation: Decimation = 1,
  initialSlope = 1,
): Promise<LoudnessSearch> {
  let x0 = Math.min(startDb, maxDb);
  let stats = limiter.gainCurve(Math.pow(10, x0 / 20), g, decimation);
  let y0 = limiter.estimateLoudness(Math.pow(10, x0 / 20), g, decimation);
  let iterations = 1;
  let slope = initialSlope;
  while (Math.abs(y0 - targetLufs) > 0.01 && iterations < 12) {
    let x1 = x0 + (targetLufs - y0) / Math.max(0.05, slope);
    x1 = Math.min(maxDb, x1);
    if (x1 === x0) break;
    stats = limiter.gainCurve(Math.pow(10, x1 / 20), g, decimation);
    const y1 = limiter.estimateLoudness(Math.pow(10, x1 / 20), g, decimation);
    iterations++;
    if (Math.abs(x1 - x0) > 1e-6) slope = (y1 - y0) / (x1 - x0);
    x0 = x1;
    y0 = y1;
    if (tick) await tick(Math.min(0.95, iterations / 8));
  }
  return { gainDb: x0, estimatedLufs: y0, iterations, slope, stats };
}
