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
 */
import { type Biquad, biquadRun, biquadState } from '../dsp/biquad';
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
  private kWeighted: Float32Array[] | null = null;
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

  /** K-weighted copy of the input, for loudness estimates during the gain search. */
  async prepareLoudness(tick?: Tick): Promise<void> {
    const [shelf, rlb] = kWeighting(this.pcm.sampleRate);
    const out: Float32Array[] = [];
    const chs = this.pcm.channels;
    // A stereo pair on the SIMD kernel, rounded after each section as the two passes below: the same to the bit.
    const stereo = chs.length === 2 ? stereoCascade([shelf, rlb], { roundEachSection: true }) : null;
    if (stereo) {
      const y = [new Float32Array(this.n), new Float32Array(this.n)] as const;
      for (let s = 0; s < this.n; s += CHUNK) {
        const e = Math.min(this.n, s + CHUNK);
        stereo.run(chs[0]!, chs[1]!, y[0], y[1], s, e);
        if (tick) await tick(e / this.n);
      }
      this.kWeighted = [y[0], y[1]];
      return;
    }
    for (let c = 0; c < chs.length; c++) {
      const y = new Float32Array(this.n);
      const states = [biquadState(), biquadState()];
      const stages: Biquad[] = [shelf, rlb];
      for (let s = 0; s < this.n; s += CHUNK) {
        const e = Math.min(this.n, s + CHUNK);
        biquadRun(stages[0]!, states[0]!, chs[c]!, y, s, e);
        biquadRun(stages[1]!, states[1]!, y, y, s, e);
        if (tick) await tick((c + e / this.n) / chs.length);
      }
      out.push(y);
    }
    this.kWeighted = out;
  }

  /** Fills `g` with the limiter gain for input gain `gain` (linear) and returns reduction statistics. */
  gainCurve(gain: number, g: Float32Array, decimation: 1 | 4 = 1): GainStats {
    const envelope = decimation === 1 ? this.envelope : this.coarseEnvelope();
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
      const p = k < n ? envelope[k]! : 0;
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
        g[t] = b;
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

  /** Envelope maxima over blocks of 4 samples (an upper bound at a quarter of the rate), for fast gain searches. */
  private coarse: Float32Array | null = null;
  private coarseEnvelope(): Float32Array {
    if (this.coarse) return this.coarse;
    const e = this.envelope;
    const out = new Float32Array(Math.ceil(this.n / 4));
    for (let k = 0; k < out.length; k++) {
      const i = 4 * k;
      out[k] = Math.max(e[i]!, e[i + 1] ?? 0, e[i + 2] ?? 0, e[i + 3] ?? 0);
    }
    this.coarse = out;
    return out;
  }

  /**
   * Integrated loudness (LUFS) the output would have with input gain `gain` and limiter gain `g` (at full rate, or
   * at a quarter of it when `decimation` is 4).
   */
  estimateLoudness(gain: number, g: Float32Array, decimation: 1 | 4 = 1): number {
    const y = this.kWeighted;
    if (!y) throw new Error('prepareLoudness() first');
    const hop = Math.round(this.pcm.sampleRate / 10);
    const steps = new Float64Array(Math.floor(this.n / hop));
    for (const ch of y) {
      for (let s = 0; s < steps.length; s++) {
        let e = 0;
        const end = (s + 1) * hop;
        if (decimation === 1) {
          for (let i = s * hop; i < end; i++) {
            const v = g[i]! * ch[i]!;
            e += v * v;
          }
        } else {
          for (let i = s * hop; i < end; i++) {
            const v = g[i >> 2]! * ch[i]!;
            e += v * v;
          }
        }
        steps[s] = steps[s]! + e;
      }
    }
    // Channel weights as the meter's (a mono signal counts twice: dual mono).
    const g2 = gain * gain * channelWeights(y.length)[0]!;
    for (let s = 0; s < steps.length; s++) steps[s] = steps[s]! * g2;
    return integratedLoudness(blockEnergies(steps, hop, 4)).lufs;
  }

  /**
   * Turns the gain curve `g` into the predicted peak of the output, in place: gain * g[n] * p[n] (the limiter's
   * own view of its output's true-peak envelope, used to skip blocks when the output is measured).
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
    return integratedLoudness(blockEnergies(acc.steps(), acc.hop, 4)).lufs;
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
    this.coarse = null;
  }
}

export interface LoudnessSearch {
  gainDb: number;
  estimatedLufs: number;
  iterations: number;
  stats: GainStats;
}

/**
 * Finds the input gain (dB) for which the limited output reaches `targetLufs`, by secant steps on the monotone
 * function gain -> loudness, starting from the static gain `startDb` (exact if the limiter did nothing). `g` receives
 * the final gain curve (at a quarter of the rate when `decimation` is 4: the coarse search that precedes the exact
 * one).
 */
export async function searchGain(
  limiter: TruePeakLimiter,
  targetLufs: number,
  startDb: number,
  maxDb: number,
  g: Float32Array,
  tick?: Tick,
  decimation: 1 | 4 = 1,
): Promise<LoudnessSearch> {
  let x0 = Math.min(startDb, maxDb);
  let stats = limiter.gainCurve(Math.pow(10, x0 / 20), g, decimation);
  let y0 = limiter.estimateLoudness(Math.pow(10, x0 / 20), g, decimation);
  let iterations = 1;
  let slope = 1;
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
  return { gainDb: x0, estimatedLufs: y0, iterations, stats };
}
