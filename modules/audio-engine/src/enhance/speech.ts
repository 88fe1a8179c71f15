/**
 * Speech dynamics: de-esser, leveler and compressor. All are stereo-linked and work from envelopes evaluated at a
 * control rate of 1 ms (48 samples at 48 kHz) with gains interpolated per sample.
 */
import { BUTTERWORTH_Q, filtfiltInPlace, highpass } from '../dsp/biquad';
import { applyRamp, clamp, onePole, percentile } from '../dsp/envelope';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';
import { controlLevels, rideGain } from '../master/gain-ride';

export interface DeEsserDecision {
  /** False when no sibilant reaches the threshold: the signal is left untouched. */
  applied: boolean;
  splitHz: number;
  /** 99th percentile over voiced steps of the level above the split relative to the speaker's typical level, dB. */
  sibilanceDb: number;
  /** Threshold on (sibilance band level - speaker's typical level), dB. */
  thresholdDb: number;
  ratio: number;
  maxReductionDb: number;
  /** Fraction of 1 ms control steps with more than 1 dB reduction. */
  activeFraction: number;
}

/**
 * Split-band de-esser: the band above 5 kHz is taken with a zero-phase high-pass (2nd-order Butterworth run forward
 * and backward) and the rest is the complement x - high, so x = low + high exactly and the de-esser is transparent
 * wherever it does not act. The detector measures the smoothed power above the split (5 ms, per 1 ms step) against
 * the speaker's typical level, the median full-band level of voiced steps (within 30 dB of the loudest). An "s" is
 * harsh when the sibilant band alone is louder than the speaker's typical voiced level (the ear is also more
 * sensitive there), so that is the threshold: only steps above it whose energy is mostly high-band (band - full >
 * -10 dB, i.e. sibilants, not bright vowels) are reduced, 4:1, at most 8 dB, high band only, 1 ms attack, 60 ms
 * release. When no step reaches the threshold (a voice without excess sibilance) the stage leaves the signal as it is
 * and says so (applied: false): reducing ordinary consonants only dulls the voice and changes the waveform for
 * nothing. (Previously the threshold was the 90th percentile of the band ratio, which always reduced a tenth of the
 * voiced steps whatever the voice.)
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
  detectorLevels(chs, high, ctrl, onePole(0.005, fs), fullDb, ratioDb);
  const loudest = percentile(fullDb, 0.95);
  const voicedFull = Array.from(fullDb).filter((v) => v > loudest - 30);
  const typicalDb = voicedFull.length ? percentile(voicedFull, 0.5) : loudest;
  const bandAboveTypical = (s: number) => fullDb[s]! + ratioDb[s]! - typicalDb;
  const relative: number[] = [];
  for (let s = 0; s < steps; s++) if (fullDb[s]! > loudest - 30) relative.push(bandAboveTypical(s));
  const sibilanceDb = relative.length ? percentile(relative, 0.99) : -Infinity;
  const thresholdDb = 0;
  const isSibilant = (s: number) => fullDb[s]! > loudest - 30 && ratioDb[s]! > -10;
  let needed = false;
  for (let s = 0; s < steps && !needed; s++) if (isSibilant(s) && bandAboveTypical(s) > thresholdDb) needed = true;
  const r2 = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : -999);
  if (!needed) {
    if (tick) await tick(1);
    return {
      applied: false,
      splitHz: split,
      sibilanceDb: r2(sibilanceDb),
      thresholdDb,
      ratio: 4,
      maxReductionDb: 0,
      activeFraction: 0,
    };
  }
  const ratio = 4;
  const maxReduction = 8;
  const att = onePole(0.001, fs / ctrl);
  const rel = onePole(0.06, fs / ctrl);
  let gr = 0;
  let prev = 1;
  let active = 0;
  let maxGr = 0;
  for (let s = 0; s < steps; s++) {
    const over = isSibilant(s) ? bandAboveTypical(s) - thresholdDb : 0;
    const target = over > 0 ? -Math.min(maxReduction, over * (1 - 1 / ratio)) : 0;
    const coef = target < gr ? att : rel;
    gr = coef * gr + (1 - coef) * target;
    if (-gr > 1) active++;
    if (-gr > maxGr) maxGr = -gr;
    const g = Math.pow(10, gr / 20);
    const i0 = s * ctrl;
    const i1 = Math.min(n, i0 + ctrl);
    const step = (g - prev) / (i1 - i0);
    for (let c = 0; c < chs.length; c++) addHighBandGain(chs[c]!, high[c]!, i0, i1, prev, step);
    prev = g;
    if (tick && (s & 8191) === 8191) await tick(0.3 + (0.7 * s) / steps);
  }
  return {
    applied: true,
    splitHz: split,
    sibilanceDb: r2(sibilanceDb),
    thresholdDb,
    ratio,
    maxReductionDb: Math.round(maxGr * 100) / 100,
    activeFraction: Math.round((active / Math.max(1, steps)) * 1000) / 1000,
  };
}

// The per-sample loops of the de-esser and the leveler are small functions of typed arrays and numbers: V8
// optimises each once and keeps it for every job (inline in the stages' own functions they ran partly unoptimised in
// each job).

/**
 * De-esser detector: 5 ms smoothed powers of the high band and of the full signal (channels summed), read at the end
 * of each control step of `ctrl` samples as full-band level (dB) and high-band share (dB).
 */
function detectorLevels(
  chs: Float32Array[],
  high: Float32Array[],
  ctrl: number,
  a: number,
  fullDb: Float32Array,
  ratioDb: Float32Array,
): void {
  const n = chs[0]!.length;
  let ph = 0;
  let pf = 0;
  for (let s = 0; s < fullDb.length; s++) {
    const e = Math.min(n, (s + 1) * ctrl);
    if (chs.length === 1) {
      const hi = high[0]!;
      const x = chs[0]!;
      for (let i = s * ctrl; i < e; i++) {
        ph = a * ph + (1 - a) * hi[i]! * hi[i]!;
        pf = a * pf + (1 - a) * x[i]! * x[i]!;
      }
    } else
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
}

/** x = low + high, so low + high * g = x + high * (g - 1): the high band's gain ramping from prev + step. */
function addHighBandGain(
  out: Float32Array,
  hi: Float32Array,
  i0: number,
  i1: number,
  prev: number,
  step: number,
): void {
  for (let i = i0, gi = prev + step; i < i1; i++, gi += step) out[i] = out[i]! + hi[i]! * (gi - 1);
}

/** Mean power per step of `hop` samples over all channels. */
function stepPowers(chs: Float32Array[], hop: number, steps: number): Float64Array {
  const n = chs[0]!.length;
  const out = new Float64Array(steps);
  for (let s = 0; s < steps; s++) {
    let e = 0;
    const end = Math.min(n, (s + 1) * hop);
    for (let c = 0; c < chs.length; c++) {
      const ch = chs[c]!;
      for (let i = s * hop; i < end; i++) e += ch[i]! * ch[i]!;
    }
    out[s] = e / (hop * chs.length);
  }
  return out;
}

export interface LevelerDecision {
  /** False when every phrase already lies within the dead band of the speaker's level: no gain is applied. */
  applied: boolean;
  targetDb: number;
  maxGainDb: number;
  deadBandDb: number;
  /** 5th and 95th percentiles of the phrase levels (3 s, speech only) relative to the target, dB. */
  phraseSpreadDb: [number, number];
  minGainDb: number;
  maxAppliedGainDb: number;
  speechFraction: number;
}

/** Length of the phrase-level window, seconds (the short-term loudness window of EBU R128). */
const PHRASE_SECONDS = 3;

/**
 * Speech leveler: evens out speakers and phrases, not words. Speech steps (10 ms; RNNoise voice probability > 0.5,
 * or energy within 20 dB of the 90th percentile of 400 ms levels when no VAD is given) are measured as phrase
 * levels: the mean power of the speech steps within a centred 3 s window (pauses excluded, so they neither pull the
 * level down nor get pulled up). The speaker's level is the median phrase level.
 *
 * The need is measured first: when the 5th to 95th percentile of the phrase levels lies within the +-2 dB dead band
 * plus 1 dB (one speaker at a steady distance; corrections under 1 dB are below the just-noticeable level
 * difference) the stage does nothing and reports applied: false, because a time-varying gain there would only
 * modulate the voice. Otherwise the correction beyond the dead band is bounded to +-`range` dB and smoothed with
 * 0.3 s attack / 1 s release; it starts at the first phrase's gain, may fall in pauses to what the next phrase needs
 * but never rises there (noise is not pulled up), so a quiet and a loud speaker end up within the dead band of each
 * other without breathing. Syllable and word dynamics are left alone (the podcast chain's compressor handles those).
 */
export async function level(pcm: Pcm, vad: Float32Array | null, range: number, tick?: Tick): Promise<LevelerDecision> {
  const fs = pcm.sampleRate;
  const n = frameCount(pcm);
  const hop = Math.round(fs / 100);
  const steps = Math.ceil(n / hop);
  const chs = pcm.channels;
  const stepPower = stepPowers(chs, hop, steps);
  const levels = new Float32Array(steps);
  let acc = 0;
  for (let s = 0; s < steps; s++) {
    acc += stepPower[s]!;
    if (s >= 40) acc -= stepPower[s - 40]!;
    levels[s] = 10 * Math.log10(Math.max(1e-12, acc / Math.min(40, s + 1)));
  }
  const energyGate = percentile(levels, 0.9) - 20;
  const speechStep = new Uint8Array(steps);
  for (let s = 0; s < steps; s++) {
    if (vad) {
      const f = Math.floor((s * hop * 48000) / (fs * 480));
      speechStep[s] = (vad[f] ?? 0) > 0.5 ? 1 : 0;
    } else speechStep[s] = levels[s]! > energyGate ? 1 : 0;
  }
  // Phrase levels: centred window of speech steps only (prefix sums of power and count).
  const half = Math.round((PHRASE_SECONDS * 100) / 2);
  const sumP = new Float64Array(steps + 1);
  const sumN = new Float64Array(steps + 1);
  for (let s = 0; s < steps; s++) {
    sumP[s + 1] = sumP[s]! + (speechStep[s] ? stepPower[s]! : 0);
    sumN[s + 1] = sumN[s]! + speechStep[s]!;
  }
  const phrase = new Float32Array(steps);
  const speech: number[] = [];
  for (let s = 0; s < steps; s++) {
    const a = Math.max(0, s - half);
    const b = Math.min(steps, s + half + 1);
    const count = sumN[b]! - sumN[a]!;
    phrase[s] = count > 0 ? 10 * Math.log10(Math.max(1e-12, (sumP[b]! - sumP[a]!) / count)) : -120;
    if (speechStep[s]) speech.push(phrase[s]!);
  }
  const speechFraction = speech.length / Math.max(1, steps);
  const targetDb = speech.length ? percentile(speech, 0.5) : percentile(levels, 0.9);
  const dead = 2;
  const r = (v: number) => Math.round(v * 100) / 100;
  const lo = speech.length ? percentile(speech, 0.05) - targetDb : 0;
  const hi = speech.length ? percentile(speech, 0.95) - targetDb : 0;
  const decision = {
    targetDb: r(targetDb),
    maxGainDb: range,
    deadBandDb: dead,
    phraseSpreadDb: [r(lo), r(hi)] as [number, number],
    speechFraction: r(speechFraction),
  };
  // Corrections under 1 dB beyond the dead band (about the just-noticeable level difference) are not worth a
  // time-varying gain: skip unless some phrase lies further than that from the speaker's level.
  if (lo >= -dead - 1 && hi <= dead + 1) {
    if (tick) await tick(1);
    return { applied: false, ...decision, minGainDb: 0, maxAppliedGainDb: 0 };
  }
  const att = onePole(0.3, 100);
  const rel = onePole(1, 100);
  const wanted = (s: number) => {
    const diff = targetDb - phrase[s]!;
    const beyond = Math.abs(diff) <= dead ? 0 : diff - Math.sign(diff) * dead;
    return clamp(beyond, -range, range);
  };
  // Offline the first phrase's level is known: start at its gain instead of ramping up from 0 dB.
  const first = speechStep.indexOf(1);
  let gDb = first >= 0 ? wanted(first) : 0;
  let prev = Math.pow(10, gDb / 20);
  let minG = Math.min(0, gDb);
  let maxG = Math.max(0, gDb);
  // Offline the next phrase is known too: in a pause the gain may already fall to what the next phrase needs (a loud
  // speaker after a quiet one starts at the right level instead of 0.3 s too loud), never rise (noise is not pulled
  // up in the pause; a quiet speaker after a loud one is brought up once speech resumes).
  const nextSpeech = new Int32Array(steps).fill(-1);
  for (let s = steps - 1, next = -1; s >= 0; s--) {
    if (speechStep[s]) next = s;
    nextSpeech[s] = next;
  }
  for (let s = 0; s < steps; s++) {
    const next = nextSpeech[s]!;
    const want = speechStep[s] ? wanted(s) : next >= 0 ? Math.min(gDb, wanted(next)) : gDb;
    const coef = want < gDb ? att : rel;
    gDb = coef * gDb + (1 - coef) * want;
    minG = Math.min(minG, gDb);
    maxG = Math.max(maxG, gDb);
    const g = Math.pow(10, gDb / 20);
    const i0 = s * hop;
    const i1 = Math.min(n, i0 + hop);
    const step = (g - prev) / Math.max(1, i1 - i0);
    for (const ch of chs) applyRamp(ch, i0, i1, prev, step);
    prev = g;
    if (tick && (s & 4095) === 4095) await tick(s / steps);
  }
  return { applied: true, ...decision, minGainDb: r(minG), maxAppliedGainDb: r(maxG) };
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
  const control = controlLevels(pcm, 0.01);
  const loud = percentile(control.levels, 0.98);
  const active = Array.from(control.levels).filter((l) => l > loud - 35);
  const thresholdDb = percentile(active, 0.8);
  const { meanReductionDb } = await rideGain(
    pcm,
    control,
    { thresholdDb, ratio, kneeDb: 6, attackSec: 0.005, releaseSec: 0.1, activeAboveDb: loud - 35 },
    tick,
  );
  return {
    thresholdDb: Math.round(thresholdDb * 100) / 100,
    ratio,
    attackMs: 5,
    releaseMs: 100,
    meanReductionDb: Math.round(meanReductionDb * 100) / 100,
  };
}
