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
import { RealFft, addPower, hann, windowFrame } from '../dsp/fft';
import type { Tick } from '../stage/context';
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
  const hopEnergy = new Float64Array(frames + perFrame);
  for (const ch of chs) addHopEnergies(ch, frameStart(0), hop, hopEnergy);
  const energy = new Float64Array(frames);
  for (let j = 0; j < frames; j++) {
    let e = 0;
    for (let h = j; h < j + perFrame; h++) e += hopEnergy[h]!;
    energy[j] = e / (N * nc);
  }
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
      for (const ch of chs) {
        windowFrame(ch, frameStart(j), win, buf);
        fft.forward(buf, re, im);
        addPower(re, im, noise, quiet.length * nc);
      }
    }
  }
  const quietMean = quiet.reduce((a, [e]) => a + e, 0) / Math.max(1, quiet.length);
  const median = audible.length ? audible[Math.floor(audible.length / 2)]![0] : 0;
  const noiseToMedianDb = quietMean > 0 && median > 0 ? 10 * Math.log10(quietMean / median) : 0;
  const maxReductionDb = options.maxReductionDb ?? (noiseToMedianDb > -6 && vadNoise.length < 8 ? 4 : 10);
  const outputs = chs.map(() => new Float32Array(n));
  const guide = options.guide;
  const guideRe = new Float64Array(bins);
  const guideIm = new Float64Array(bins);
  const guidePower = new Float64Array(bins);
  const spectraRe = chs.map(() => new Float64Array(bins));
  const spectraIm = chs.map(() => new Float64Array(bins));
  const power = new Float64Array(bins);
  const gain = new Float64Array(bins);
  const smooth = new Float64Array(bins);
  const wiener: WienerParams = {
    noise,
    prevGain2Gamma: new Float64Array(bins),
    alpha: options.alpha ?? 0.96,
    floor: Math.pow(10, -maxReductionDb / 20),
    guideWeight: options.guideWeight ?? 0.5,
  };
  const prevLog = new Float64Array(bins).fill(-100);
  const fluxHistory: number[] = [];
  let transientFrames = 0;
  let holdTransient = 0;
  let reductionSum = 0;
  let reductionCount = 0;
  const spareTransients = options.spareTransients ?? true;
  const synth = new Float64Array(N);
  for (let j = 0; j < frames; j++) {
    const s = frameStart(j);
    for (let c = 0; c < nc; c++) {
      windowFrame(chs[c]!, s, win, buf);
      fft.forward(buf, spectraRe[c]!, spectraIm[c]!);
    }
    if (guide) {
      guidePower.fill(0);
      for (const gch of guide) {
        windowFrame(gch, s, win, buf);
        fft.forward(buf, guideRe, guideIm);
        addPower(guideRe, guideIm, guidePower, guide.length);
      }
    }
    meanPower(spectraRe, spectraIm, power);
    wienerGains(power, guide ? guidePower : null, wiener, gain);
    if (spareTransients) {
      const flux = spectralFlux(power, noise, prevLog);
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
    reductionSum = smoothGains(gain, transient, smooth, reductionSum);
    reductionCount += bins;
    for (let c = 0; c < nc; c++) {
      scaleSpectrum(spectraRe[c]!, spectraIm[c]!, smooth);
      fft.inverse(spectraRe[c]!, spectraIm[c]!, synth);
      overlapAdd(synth, synthWin, s, outputs[c]!);
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

// The per-sample and per-bin work lives in the small functions below, which take only typed arrays and numbers:
// V8 optimises each once and keeps it across jobs. Written inline in spectralDenoise, the loops ran partly
// unoptimised in every job (its closures and option objects differ from job to job, so its optimised code was
// dropped and rebuilt each time; measured: about 240 MB of short-lived numbers and 150-320 ms of compilation per
// 45 s job).

/** Adds the energy of x over consecutive hops (the first starting at `first`, zeros outside x) to `out`. */
function addHopEnergies(x: Float32Array, first: number, hop: number, out: Float64Array): void {
  const n = x.length;
  for (let h = 0; h < out.length; h++) {
    const s = first + h * hop;
    const a = Math.max(0, s);
    const b = Math.min(n, s + hop);
    let e = out[h]!;
    for (let i = a; i < b; i++) e += x[i]! * x[i]!;
    out[h] = e;
  }
}

/** Power per bin averaged over the channels' spectra. */
function meanPower(re: Float64Array[], im: Float64Array[], out: Float64Array): void {
  const nc = re.length;
  for (let k = 0; k < out.length; k++) {
    let p = 0;
    for (let c = 0; c < nc; c++) {
      const r = re[c]![k]!;
      const i = im[c]![k]!;
      p += r * r + i * i;
    }
    out[k] = p / nc;
  }
}

interface WienerParams {
  /** Noise power per bin. */
  noise: Float64Array;
  /** G^2 gamma of the previous frame per bin (the decision-directed memory), updated in place. */
  prevGain2Gamma: Float64Array;
  alpha: number;
  /** Smallest gain (linear). */
  floor: number;
  /** Weight of the guide's SNR against the decision-directed one. */
  guideWeight: number;
}

/** Wiener gains of one frame from its mean power (and the guide's, when given) into `gain`. */
function wienerGains(power: Float64Array, guidePower: Float64Array | null, w: WienerParams, gain: Float64Array): void {
  const { noise, prevGain2Gamma, alpha, floor, guideWeight } = w;
  for (let k = 0; k < gain.length; k++) {
    const p = power[k]!;
    const nk = noise[k]! + 1e-20;
    const gamma = p / nk;
    let xi = alpha * prevGain2Gamma[k]! + (1 - alpha) * Math.max(gamma - 1, 0);
    if (guidePower) xi = (1 - guideWeight) * xi + guideWeight * (guidePower[k]! / nk);
    const g = Math.max(floor, xi / (1 + xi));
    gain[k] = g;
    prevGain2Gamma[k] = g * g * gamma;
  }
}

/** Mean positive log-power rise over the bins well above the noise (updates prevLog); 0 when there are none. */
function spectralFlux(power: Float64Array, noise: Float64Array, prevLog: Float64Array): number {
  let flux = 0;
  let fluxBins = 0;
  for (let k = 0; k < power.length; k++) {
    const p = power[k]!;
    const lp = 10 * Math.log10(p + 1e-20);
    if (p > 4 * (noise[k]! + 1e-20)) {
      flux += Math.max(0, lp - prevLog[k]!);
      fluxBins++;
    }
    prevLog[k] = lp;
  }
  return fluxBins ? flux / fluxBins : 0;
}

/** Gains smoothed over 3 bins (1 on a transient frame) into `smooth`; returns `sum` plus their sum. */
function smoothGains(gain: Float64Array, transient: boolean, smooth: Float64Array, sum: number): number {
  const bins = gain.length;
  for (let k = 0; k < bins; k++) {
    const a = gain[Math.max(0, k - 1)]!;
    const b = gain[k]!;
    const c = gain[Math.min(bins - 1, k + 1)]!;
    smooth[k] = transient ? 1 : (a + 2 * b + c) / 4;
    sum += smooth[k]!;
  }
  return sum;
}

function scaleSpectrum(re: Float64Array, im: Float64Array, gain: Float64Array): void {
  for (let k = 0; k < gain.length; k++) {
    re[k] = re[k]! * gain[k]!;
    im[k] = im[k]! * gain[k]!;
  }
}

/** Adds the frame `synth`, windowed, to `out` at sample s (the part inside out). */
function overlapAdd(synth: Float64Array, win: Float64Array, s: number, out: Float32Array): void {
  const i0 = Math.max(0, -s);
  const i1 = Math.min(synth.length, out.length - s);
  for (let i = i0; i < i1; i++) out[s + i] = out[s + i]! + synth[i]! * win[i]!;
}
