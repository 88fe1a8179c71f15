/**
 * Gentle broadband denoiser for music: short-time spectral attenuation with a stationary noise profile.
 *
 * - Noise profile: the mean power spectrum of the quietest 10 % of frames (above digital silence). When even those
 *   are within 6 dB of the median frame (no real pauses, so the "noise" would be music), the maximum reduction drops
 *   from 10 to 4 dB.
 * - Gain per bin: Wiener gain G = xi / (1 + xi) with the a-priori SNR xi from Ephraim & Malah's decision-directed
 *   estimate (IEEE TASSP 1984), alpha = 0.96, which keeps gains smooth in time and avoids musical noise; floored at
 *   the maximum reduction and smoothed over 3 bins.
 * - Transients are spared: a frame whose spectral flux (mean positive log-power rise over bins above the noise)
 *   exceeds 3x its running median, and the frame after it, pass with unit gain, so attacks are not softened by the
 *   lagging gain estimate.
 * - Gains are linked across channels (computed from the channel-mean power) so the stereo image does not wander.
 * - STFT: 2048-point Hann analysis and synthesis windows, hop 512 (overlap-add gain 1.5 compensated), or for speech
 *   square-root Hann windows at hop 1024; no latency.
 */
import { RealFft, hann } from '../dsp/fft';
import type { Tick } from '../job/context';
import { type Pcm, frameCount } from '../pcm';

const N = 2048;
const HOP = 512;

export interface DenoiseDecision {
  method: 'spectral-wiener';
  maxReductionDb: number;
  noiseFloorDb: number;
  noiseToMedianDb: number;
  transientFrames: number;
  meanReductionDb: number;
}

export interface DenoiseOptions {
  /** Largest attenuation, dB (default 10, or 4 when no quiet frames stand out). */
  maxReductionDb?: number;
  /** Decision-directed smoothing (default 0.96). */
  alpha?: number;
  /** Let transient frames through untouched (default true: music). */
  spareTransients?: boolean;
  /**
   * Frames known to hold noise only (e.g. from a voice-activity detector), given their start sample; when given
   * the noise profile is their mean spectrum instead of the quietest 10 % of frames.
   */
  isNoise?: (frameStart: number, frameLength: number) => boolean;
  /**
   * A first clean-speech estimate of the same signal (e.g. RNNoise's output). Its power per bin over the noise
   * power is averaged with the decision-directed a-priori SNR ("two-step" Wiener filtering: Plapous, Marro &
   * Scalart, IEEE TASLP 2006), which sharpens the gains between harmonics where RNNoise's 22 bands are coarse.
   */
  guide?: Float32Array[];
  /**
   * Frame overlap: 0.75 (hop 512, Hann analysis and synthesis windows, smoothest for music) or 0.5 (hop 1024,
   * square-root Hann windows, half the work; used for speech).
   */
  overlap?: 0.75 | 0.5;
  /** Weight of the guide's SNR against the decision-directed one (default 0.5). */
  guideWeight?: number;
}

export async function spectralDenoise(pcm: Pcm, tick?: Tick, options: DenoiseOptions = {}): Promise<DenoiseDecision> {
  const n = frameCount(pcm);
  const chs = pcm.channels;
  const nc = chs.length;
  const bins = N / 2 + 1;
  const fft = new RealFft(N);
  const half = options.overlap === 0.5;
  const hop = half ? N / 2 : HOP;
  const win = half ? hann(N).map(Math.sqrt) : hann(N);
  // Overlap-add gain of analysis x synthesis windows: sum of hann^2 at 75 % overlap is 1.5; of hann at 50 % is 1.
  const olaGain = half ? 1 : 1.5;
  const synthWin = win.map((w) => w / olaGain);
  const frames = Math.ceil((n + N) / hop);
  const frameStart = (j: number) => -N + hop + j * hop;
  // Frame energies (time domain) to find the quietest frames.
  // Each frame spans N / hop whole hops (frames start on hop boundaries), so the energy of every hop is summed once
  // and a frame's energy is the sum of its hops' (the signal is read once instead of N / hop times).
  const perFrame = N / hop;
  const hops = frames + perFrame;
  const hopEnergy = new Float64Array(hops);
  for (let h = 0; h < hops; h++) {
    const s = frameStart(0) + h * hop;
    const a = Math.max(0, s);
    const b = Math.min(n, s + hop);
    let e = 0;
    for (const ch of chs) for (let i = a; i < b; i++) e += ch[i]! * ch[i]!;
    hopEnergy[h] = e;
  }
  const energy = new Float64Array(frames);
  for (let j = 0; j < frames; j++) {
    let e = 0;
    for (let h = j; h < j + perFrame; h++) e += hopEnergy[h]!;
    energy[j] = e / (N * nc);
  }
  // Windowed frame starting at sample s into buf (zeros outside the signal; no per-sample bounds test inside it).
  const windowed = (x: Float32Array, s: number) => {
    if (s >= 0 && s + N <= n) {
      for (let i = 0; i < N; i++) buf[i] = x[s + i]! * win[i]!;
      return;
    }
    for (let i = 0; i < N; i++) {
      const k = s + i;
      buf[i] = k >= 0 && k < n ? x[k]! * win[i]! : 0;
    }
  };
  const audible = Array.from(energy)
    .map((e, j) => [e, j] as const)
    .filter(([e, j]) => e > 1e-9 && frameStart(j) >= 0 && frameStart(j) + N <= n)
    .sort((a, b) => a[0] - b[0]);
  const noise = new Float64Array(bins);
  const re = new Float64Array(bins);
  const im = new Float64Array(bins);
  const buf = new Float64Array(N);
  const vadNoise = options.isNoise ? audible.filter(([, j]) => options.isNoise!(frameStart(j), N)) : [];
  const quiet = vadNoise.length >= 8 ? vadNoise : audible.slice(0, Math.max(1, Math.floor(audible.length * 0.1)));
  if (audible.length > 0) {
    for (const [, j] of quiet) {
      const s = frameStart(j);
      for (const ch of chs) {
        for (let i = 0; i < N; i++) buf[i] = ch[s + i]! * win[i]!;
        fft.forward(buf, re, im);
        for (let k = 0; k < bins; k++) noise[k] = noise[k]! + (re[k]! * re[k]! + im[k]! * im[k]!) / (quiet.length * nc);
      }
    }
  }
  const quietMean = quiet.reduce((a, [e]) => a + e, 0) / Math.max(1, quiet.length);
  const median = audible.length ? audible[Math.floor(audible.length / 2)]![0] : 0;
  const noiseToMedianDb = quietMean > 0 && median > 0 ? 10 * Math.log10(quietMean / median) : 0;
  const maxReductionDb = options.maxReductionDb ?? (noiseToMedianDb > -6 && vadNoise.length < 8 ? 4 : 10);
  const floor = Math.pow(10, -maxReductionDb / 20);
  const outputs = chs.map(() => new Float32Array(n));
  const guide = options.guide;
  const guideRe = new Float64Array(bins);
  const guideIm = new Float64Array(bins);
  const guidePower = new Float64Array(bins);
  const spectraRe = chs.map(() => new Float64Array(bins));
  const spectraIm = chs.map(() => new Float64Array(bins));
  const gain = new Float64Array(bins);
  const smooth = new Float64Array(bins);
  const prevGain2Gamma = new Float64Array(bins);
  const prevLog = new Float64Array(bins).fill(-100);
  const fluxHistory: number[] = [];
  let transientFrames = 0;
  let holdTransient = 0;
  let reductionSum = 0;
  let reductionCount = 0;
  const alpha = options.alpha ?? 0.96;
  const spareTransients = options.spareTransients ?? true;
  const guideWeight = options.guideWeight ?? 0.5;
  const synth = new Float64Array(N);
  for (let j = 0; j < frames; j++) {
    const s = frameStart(j);
    for (let c = 0; c < nc; c++) {
      windowed(chs[c]!, s);
      fft.forward(buf, spectraRe[c]!, spectraIm[c]!);
    }
    if (guide) {
      guidePower.fill(0);
      for (const gch of guide) {
        windowed(gch, s);
        fft.forward(buf, guideRe, guideIm);
        for (let k = 0; k < bins; k++) {
          const gr = guideRe[k]!;
          const gi = guideIm[k]!;
          guidePower[k] = guidePower[k]! + (gr * gr + gi * gi) / guide.length;
        }
      }
    }
    let flux = 0;
    let fluxBins = 0;
    for (let k = 0; k < bins; k++) {
      let p = 0;
      for (let c = 0; c < nc; c++) {
        const r = spectraRe[c]![k]!;
        const i = spectraIm[c]![k]!;
        p += r * r + i * i;
      }
      p /= nc;
      const nk = noise[k]! + 1e-20;
      const gamma = p / nk;
      let xi = alpha * prevGain2Gamma[k]! + (1 - alpha) * Math.max(gamma - 1, 0);
      if (guide) xi = (1 - guideWeight) * xi + guideWeight * (guidePower[k]! / nk);
      const g = Math.max(floor, xi / (1 + xi));
      gain[k] = g;
      prevGain2Gamma[k] = g * g * gamma;
      if (spareTransients) {
        const lp = 10 * Math.log10(p + 1e-20);
        if (p > 4 * nk) {
          flux += Math.max(0, lp - prevLog[k]!);
          fluxBins++;
        }
        prevLog[k] = lp;
      }
    }
    if (spareTransients) {
      flux = fluxBins ? flux / fluxBins : 0;
      const sorted = [...fluxHistory].sort((a, b) => a - b);
      const med = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Infinity;
      fluxHistory.push(flux);
      if (fluxHistory.length > 64) fluxHistory.shift();
      if (flux > 3 * med && flux > 1) holdTransient = 2;
    }
    const transient = holdTransient > 0;
    if (transient) {
      holdTransient--;
      transientFrames++;
    }
    for (let k = 0; k < bins; k++) {
      const a = gain[Math.max(0, k - 1)]!;
      const b = gain[k]!;
      const c = gain[Math.min(bins - 1, k + 1)]!;
      smooth[k] = transient ? 1 : (a + 2 * b + c) / 4;
      reductionSum += smooth[k]!;
      reductionCount++;
    }
    for (let c = 0; c < nc; c++) {
      const sr = spectraRe[c]!;
      const si = spectraIm[c]!;
      for (let k = 0; k < bins; k++) {
        sr[k] = sr[k]! * smooth[k]!;
        si[k] = si[k]! * smooth[k]!;
      }
      fft.inverse(sr, si, synth);
      const out = outputs[c]!;
      const i0 = Math.max(0, -s);
      const i1 = Math.min(N, n - s);
      for (let i = i0; i < i1; i++) out[s + i] = out[s + i]! + synth[i]! * synthWin[i]!;
    }
    if (tick && (j & 255) === 255) await tick(j / frames);
  }
  for (let c = 0; c < nc; c++) chs[c]!.set(outputs[c]!);
  const noisePower = noise.reduce((a, v) => a + v, 0) * (2 / (N * win.reduce((a, w) => a + w * w, 0)));
  return {
    method: 'spectral-wiener',
    maxReductionDb,
    noiseFloorDb: Math.round(10 * Math.log10(noisePower + 1e-20) * 100) / 100,
    noiseToMedianDb: Math.round(noiseToMedianDb * 100) / 100,
    transientFrames,
    meanReductionDb: Math.round(-20 * Math.log10(reductionSum / Math.max(1, reductionCount)) * 100) / 100,
  };
}
