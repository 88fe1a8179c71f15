/**
 * Speech dynamics: de-esser, leveler and compressor. All are stereo-linked and work from envelopes evaluated at a
 * control rate of 1 ms (48 samples at 48 kHz) with gains interpolated per sample.
 */
import { BUTTERWORTH_Q, filtfiltInPlace, highpass } from '../dsp/biquad';
import { clamp, onePole, percentile } from '../dsp/envelope';
import type { Tick } from '../job/context';
import { type Pcm, frameCount } from '../pcm';
import { staticGainDb } from '../master/dynamics';

export interface DeEsserDecision {
  splitHz: number;
  /** Threshold on (sibilance band - full band) level, dB. */
  thresholdDb: number;
  ratio: number;
  maxReductionDb: number;
  /** Fraction of 1 ms control steps with more than 1 dB reduction. */
  activeFraction: number;
}

/**
 * Split-band de-esser: the band above 5 kHz is taken with a zero-phase high-pass (2nd-order Butterworth run forward
 * and backward) and the rest is the complement x - high, so x = low + high exactly and the de-esser is transparent
 * wherever it does not act. The detector compares the smoothed power above the split with the
 * full-band power (sibilants concentrate their energy above 5 kHz, vowels below). The threshold is the 90th
 * percentile of that ratio over voiced frames, at least -10 dB, so ordinary consonants pass and only the harshest
 * "s" and "sh" are reduced; reduction applies to the high band only, with 1 ms attack and 60 ms release, at most 8 dB.
 */
export async function deEss(pcm: Pcm, tick?: Tick): Promise<DeEsserDecision> {
  const fs = pcm.sampleRate;
  const n = frameCount(pcm);
  const split = Math.min(5000, fs * 0.4);
  const ctrl = Math.max(1, Math.round(fs / 1000));
  const chs = pcm.channels;
  const high = chs.map((ch) => ch.slice());
  await filtfiltInPlace({ channels: high }, [highpass(split, fs, BUTTERWORTH_Q)]);
  if (tick) await tick(0.3);
  // Detector: 5 ms smoothed powers, evaluated per control step.
  const steps = Math.ceil(n / ctrl);
  const ratioDb = new Float32Array(steps);
  const fullDb = new Float32Array(steps);
  const a = onePole(0.005, fs);
  let ph = 0;
  let pf = 0;
  for (let s = 0; s < steps; s++) {
    const e = Math.min(n, (s + 1) * ctrl);
    for (let i = s * ctrl; i < e; i++) {
      let h = 0;
      let f = 0;
      for (let c = 0; c < chs.length; c++) {
        const hv = high[c]![i]!;
        const fv = chs[c]![i]!;
        h += hv * hv;
        f += fv * fv;
      }
      ph = a * ph + (1 - a) * h;
      pf = a * pf + (1 - a) * f;
    }
    fullDb[s] = 10 * Math.log10(pf + 1e-20);
    ratioDb[s] = 10 * Math.log10((ph + 1e-20) / (pf + 1e-20));
  }
  const loudest = percentile(fullDb, 0.95);
  const voiced = Array.from(ratioDb).filter((_, s) => fullDb[s]! > loudest - 30);
  const thresholdDb = Math.max(-10, percentile(voiced, 0.9));
  const ratio = 4;
  const maxReduction = 8;
  const att = onePole(0.001, fs / ctrl);
  const rel = onePole(0.06, fs / ctrl);
  let gr = 0;
  let prev = 1;
  let active = 0;
  let maxGr = 0;
  for (let s = 0; s < steps; s++) {
    const over = fullDb[s]! > loudest - 30 ? ratioDb[s]! - thresholdDb : 0;
    const target = over > 0 ? -Math.min(maxReduction, over * (1 - 1 / ratio)) : 0;
    const coef = target < gr ? att : rel;
    gr = coef * gr + (1 - coef) * target;
    if (-gr > 1) active++;
    if (-gr > maxGr) maxGr = -gr;
    const g = Math.pow(10, gr / 20);
    const i0 = s * ctrl;
    const i1 = Math.min(n, i0 + ctrl);
    const step = (g - prev) / (i1 - i0);
    for (let c = 0; c < chs.length; c++) {
      const out = chs[c]!;
      const hi = high[c]!;
      // x = low + high, so low + high * g = x + high * (g - 1).
      for (let i = i0, gi = prev + step; i < i1; i++, gi += step) out[i] = out[i]! + hi[i]! * (gi - 1);
    }
    prev = g;
    if (tick && (s & 8191) === 8191) await tick(0.3 + (0.7 * s) / steps);
  }
  return {
    splitHz: split,
    thresholdDb: Math.round(thresholdDb * 100) / 100,
    ratio,
    maxReductionDb: Math.round(maxGr * 100) / 100,
    activeFraction: Math.round((active / Math.max(1, steps)) * 1000) / 1000,
  };
}

export interface LevelerDecision {
  targetDb: number;
  maxGainDb: number;
  deadBandDb: number;
  minGainDb: number;
  maxAppliedGainDb: number;
  speechFraction: number;
}

/**
 * Speech leveler: the level of 400 ms windows (RMS, every 10 ms) is compared with the speaker's typical level (the
 * median over speech frames, speech meaning RNNoise voice probability > 0.5, or energy when no VAD is given). The
 * correction is applied beyond a +-2 dB dead band, bounded to +-`range` dB, held through pauses (noise is never
 * pulled up), and smoothed with 0.3 s attack / 1 s release, so phrases even out without breathing.
 */
export async function level(pcm: Pcm, vad: Float32Array | null, range: number, tick?: Tick): Promise<LevelerDecision> {
  const fs = pcm.sampleRate;
  const n = frameCount(pcm);
  const hop = Math.round(fs / 100);
  const steps = Math.ceil(n / hop);
  const chs = pcm.channels;
  const stepPower = new Float64Array(steps);
  for (let s = 0; s < steps; s++) {
    let e = 0;
    const end = Math.min(n, (s + 1) * hop);
    for (const ch of chs) for (let i = s * hop; i < end; i++) e += ch[i]! * ch[i]!;
    stepPower[s] = e / (hop * chs.length);
  }
  const levels = new Float32Array(steps);
  let acc = 0;
  for (let s = 0; s < steps; s++) {
    acc += stepPower[s]!;
    if (s >= 40) acc -= stepPower[s - 40]!;
    levels[s] = 10 * Math.log10(Math.max(1e-12, acc / Math.min(40, s + 1)));
  }
  const energyGate = percentile(levels, 0.9) - 20;
  const isSpeech = (s: number): boolean => {
    if (vad) {
      const f = Math.floor((s * hop * 48000) / (fs * 480));
      return (vad[f] ?? 0) > 0.5;
    }
    return levels[s]! > energyGate;
  };
  const speech = Array.from(levels).filter((_, s) => isSpeech(s));
  const speechFraction = speech.length / Math.max(1, steps);
  const targetDb = speech.length ? percentile(speech, 0.5) : percentile(levels, 0.9);
  const dead = 2;
  const att = onePole(0.3, 100);
  const rel = onePole(1, 100);
  let gDb = 0;
  let prev = 1;
  let minG = 0;
  let maxG = 0;
  for (let s = 0; s < steps; s++) {
    let want = gDb;
    if (isSpeech(s)) {
      const diff = targetDb - levels[s]!;
      const beyond = Math.abs(diff) <= dead ? 0 : diff - Math.sign(diff) * dead;
      want = clamp(beyond, -range, range);
    }
    const coef = want < gDb ? att : rel;
    gDb = coef * gDb + (1 - coef) * want;
    minG = Math.min(minG, gDb);
    maxG = Math.max(maxG, gDb);
    const g = Math.pow(10, gDb / 20);
    const i0 = s * hop;
    const i1 = Math.min(n, i0 + hop);
    const step = (g - prev) / Math.max(1, i1 - i0);
    for (const ch of chs) for (let i = i0, gi = prev + step; i < i1; i++, gi += step) ch[i] = ch[i]! * gi;
    prev = g;
    if (tick && (s & 4095) === 4095) await tick(s / steps);
  }
  const r = (v: number) => Math.round(v * 100) / 100;
  return {
    targetDb: r(targetDb),
    maxGainDb: range,
    deadBandDb: dead,
    minGainDb: r(minG),
    maxAppliedGainDb: r(maxG),
    speechFraction: r(speechFraction),
  };
}

export interface CompressorDecision {
  thresholdDb: number;
  ratio: number;
  attackMs: number;
  releaseMs: number;
  meanReductionDb: number;
}

/**
 * Broadband feed-forward compressor (RMS detector, 10 ms), soft knee 6 dB, threshold at the 80th percentile of the
 * active signal's level so it works on the loudest syllables only, make-up left to the loudness stage.
 */
export async function compress(pcm: Pcm, ratio: number, tick?: Tick): Promise<CompressorDecision> {
  const fs = pcm.sampleRate;
  const n = frameCount(pcm);
  const chs = pcm.channels;
  const ctrl = Math.max(1, Math.round(fs / 1000));
  const steps = Math.ceil(n / ctrl);
  const levels = new Float32Array(steps);
  const a = onePole(0.01, fs);
  let p = 0;
  for (let s = 0; s < steps; s++) {
    const e = Math.min(n, (s + 1) * ctrl);
    for (let i = s * ctrl; i < e; i++) {
      let sq = 0;
      for (const ch of chs) sq += ch[i]! * ch[i]!;
      p = a * p + ((1 - a) * sq) / chs.length;
    }
    levels[s] = 10 * Math.log10(p + 1e-20);
  }
  const loud = percentile(levels, 0.98);
  const active = Array.from(levels).filter((l) => l > loud - 35);
  const thresholdDb = percentile(active, 0.8);
  const att = onePole(0.005, fs / ctrl);
  const rel = onePole(0.1, fs / ctrl);
  let gr = 0;
  let prev = 1;
  let sum = 0;
  let count = 0;
  for (let s = 0; s < steps; s++) {
    const target = staticGainDb(levels[s]!, thresholdDb, ratio, 6);
    const coef = target < gr ? att : rel;
    gr = coef * gr + (1 - coef) * target;
    if (levels[s]! > loud - 35) {
      sum -= gr;
      count++;
    }
    const g = Math.pow(10, gr / 20);
    const i0 = s * ctrl;
    const i1 = Math.min(n, i0 + ctrl);
    const step = (g - prev) / (i1 - i0);
    for (const ch of chs) for (let i = i0, gi = prev + step; i < i1; i++, gi += step) ch[i] = ch[i]! * gi;
    prev = g;
    if (tick && (s & 8191) === 8191) await tick(s / steps);
  }
  return {
    thresholdDb: Math.round(thresholdDb * 100) / 100,
    ratio,
    attackMs: 5,
    releaseMs: 100,
    meanReductionDb: Math.round((count ? sum / count : 0) * 100) / 100,
  };
}
