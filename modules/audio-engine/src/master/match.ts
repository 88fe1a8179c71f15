/**
 * Reference matching at third-octave resolution, with a measure-and-correct loop.
 *
 * Curves: the long-term 1/3-octave spectrum (analysis/spectrum) minus the signal's integrated loudness, so a curve
 * says how each band sits relative to what the ear hears as the level of the whole. The spectral distance between two
 * signals is the RMS difference of their curves over the bands from 40 Hz to 16 kHz (levels held at most 60 dB under
 * each curve's loudest band, so a band one signal does not play counts as 60 dB down rather than as -Infinity).
 *
 * The EQ is a dense filter bank: one minimum-phase peaking section per 1/3-octave band from 25 Hz to 0.45 fs
 * (Q 4.32, a third of an octave wide), gains fitted by ridge least squares to the correction on the band centres and
 * the points between them, refined three times on the exact cascade response. Minimum phase rather than a
 * linear-phase FIR: no pre-ringing ahead of transients from the narrow low-frequency bands, no latency, and biquads
 * cost a fraction of a 4096-tap convolution (0.2 s per 10 M samples for ten sections here).
 *
 * Limits (per intensity, MATCH_LIMITS): the correction asked for is the full difference (60 % at low intensity),
 * bounded to +9 / -12 dB per band at medium (+4 / -6 low, +12 / -15 high), a third of that below 40 Hz and above
 * 16 kHz; a band the input does not play (more than 45 dB under its loudest band) is never raised, whatever the
 * reference does there: that would only lift noise, hiss or rumble.
 *
 * The loop: the first EQ is designed from the input's curve. After the dynamics and the stereo stage, the signal is
 * limited to the loudness target with a cheap proxy of the real limiter (the same gain computer and loudness search
 * on the sample-peak envelope instead of the 4x true-peak one, at a quarter of the gain rate), its curve is measured,
 * and a second EQ corrects what the dynamics and the limiter moved (within what is left of the same limits). The
 * real limiter then runs once. The master's own curve is measured at the end; the report says whether it ended
 * closer to the reference than the input was.
 */
import type { Spectrum } from '../analysis/spectrum';
import { integratedLufs } from '../analysis/loudness';
import { THIRD_OCTAVE_CENTRES, THIRD_OCTAVE_NOMINAL, thirdOctaveSpectrum } from '../analysis/spectrum';
import { type Biquad, cascadeResponseDb, filterInPlace, peaking } from '../dsp/biquad';
import { type Pcm, frameCount } from '../pcm';
import type { Intensity } from '../types';
import { type LimiterParams, TruePeakLimiter, searchGain } from './limiter';
import { type EqBand, fitGains, type TonalDecision } from './tonal';

/** Bands the distance is taken over, Hz (nominal centres). */
export const DISTANCE_BAND_HZ: readonly [number, number] = [40, 16000];
/** A band more than this under the input's loudest band counts as not played: never boosted. */
export const CONTENT_FLOOR_DB = 45;
/** Levels are held at most this far under a curve's loudest band when distances are taken. */
const DISTANCE_FLOOR_DB = 60;
/** Share of the limits allowed below 40 Hz and above 16 kHz. */
const EDGE_SHARE = 1 / 3;
/** Third-octave bandwidth: Q = sqrt(2^(1/3)) / (2^(1/3) - 1). */
export const MATCH_Q = Math.sqrt(Math.pow(2, 1 / 3)) / (Math.pow(2, 1 / 3) - 1);

export interface MatchLimits {
  maxBoostDb: number;
  maxCutDb: number;
  /** Share of the difference corrected, 0..1. */
  amount: number;
}

export const MATCH_LIMITS: Record<Intensity, MatchLimits> = {
  low: { maxBoostDb: 4, maxCutDb: 6, amount: 0.6 },
  medium: { maxBoostDb: 9, maxCutDb: 12, amount: 1 },
  high: { maxBoostDb: 12, maxCutDb: 15, amount: 1 },
};

/** A 1/3-octave curve relative to integrated loudness, dB per band (null: no energy, or above 0.45 fs). */
export function curveOf(spectrum: Spectrum, lufs: number, sampleRate: number): Array<number | null> {
  return THIRD_OCTAVE_CENTRES.map((f, i) => {
    const v = spectrum.levelsDb[i];
    return v !== undefined && Number.isFinite(v) && Number.isFinite(lufs) && f < 0.45 * sampleRate ? v - lufs : null;
  });
}

const inDistanceBand = (i: number) =>
  THIRD_OCTAVE_NOMINAL[i]! >= DISTANCE_BAND_HZ[0] && THIRD_OCTAVE_NOMINAL[i]! <= DISTANCE_BAND_HZ[1];

/** Curve with levels held at most DISTANCE_FLOOR_DB under its loudest band (null where nothing is measured). */
function floored(curve: ReadonlyArray<number | null>): Array<number | null> {
  const finite = curve.filter((v): v is number => v !== null);
  const floor = finite.length ? Math.max(...finite) - DISTANCE_FLOOR_DB : -Infinity;
  return curve.map((v) => (v === null ? null : Math.max(floor, v)));
}

/** RMS difference of two curves over 40 Hz-16 kHz, dB (bands where either is null are left out). */
export function spectralDistanceDb(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): number {
  const fa = floored(a);
  const fb = floored(b);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < fa.length; i++) {
    const x = fa[i];
    const y = fb[i];
    if (!inDistanceBand(i) || x === null || x === undefined || y === null || y === undefined) continue;
    sum += (x - y) ** 2;
    count++;
  }
  return count ? Math.sqrt(sum / count) : 0;
}

export interface MatchEqDesign {
  /** Correction asked for per band (after limits and the no-boost rule), dB. */
  correctionDb: number[];
  /** Response of the fitted filter bank at the band centres, dB. */
  achievedDb: number[];
  eq: EqBand[];
  /** Bands (nominal Hz) where the reference asked for a boost the input does not play: refused. */
  refusedBoostHz: number[];
  /** Bands (nominal Hz) where the correction hit a limit. */
  cappedHz: number[];
  /** Bands where both curves are measured (the others are held near 0 dB). */
  usable: boolean[];
}

export interface MatchEqInput {
  /** Curve of the signal to correct (relative to its loudness). */
  currentDb: ReadonlyArray<number | null>;
  referenceDb: ReadonlyArray<number | null>;
  /** The input's own band levels (dBFS), for the no-boost rule. */
  contentDb: readonly number[];
  sampleRate: number;
  limits: MatchLimits;
  /** Correction already applied by an earlier EQ, dB per band (the limits hold for the sum). */
  alreadyDb?: readonly number[];
}

/** Designs a third-octave filter bank moving `currentDb` onto `referenceDb` within the limits. */
export function designMatchEq(input: MatchEqInput): MatchEqDesign {
  const { currentDb, referenceDb, contentDb, sampleRate, limits } = input;
  const already = input.alreadyDb ?? THIRD_OCTAVE_CENTRES.map(() => 0);
  const centres = THIRD_OCTAVE_CENTRES;
  const nyquistLimit = 0.45 * sampleRate;
  const finiteContent = contentDb.filter((v) => Number.isFinite(v));
  const loudest = finiteContent.length ? Math.max(...finiteContent) : 0;
  const cur = floored(currentDb);
  const ref = floored(referenceDb);
  const usable = centres.map((f, i) => f < nyquistLimit && cur[i] !== null && ref[i] !== null);
  const raw = centres.map((_, i) => (usable[i] ? ref[i]! - cur[i]! : 0));
  // Shape only: the mean difference over 40 Hz-16 kHz is a level, which the limiter sets.
  let sum = 0;
  let count = 0;
  raw.forEach((d, i) => {
    if (usable[i] && inDistanceBand(i)) {
      sum += d;
      count++;
    }
  });
  const offset = count ? sum / count : 0;
  const refusedBoostHz: number[] = [];
  const cappedHz: number[] = [];
  const correction = raw.map((d, i) => {
    if (!usable[i]) return 0;
    const edge = !inDistanceBand(i);
    const share = edge ? EDGE_SHARE : 1;
    const wanted = already[i]! + (d - offset) * limits.amount;
    let total = Math.max(-limits.maxCutDb * share, Math.min(limits.maxBoostDb * share, wanted));
    if (Math.abs(total - wanted) > 0.05) cappedHz.push(THIRD_OCTAVE_NOMINAL[i]!);
    const played = Number.isFinite(contentDb[i]!) && contentDb[i]! >= loudest - CONTENT_FLOOR_DB;
    // Not played: the total stays at or under 0 dB, and this pass never raises it above what is already applied.
    const ceiling = Math.min(0, already[i]!);
    if (!played && total > ceiling) {
      if (wanted > ceiling + 0.5) refusedBoostHz.push(THIRD_OCTAVE_NOMINAL[i]!);
      total = ceiling;
    }
    return total - already[i]!;
  });
  const fit = fitFilterBank(correction, usable, sampleRate, limits.maxBoostDb + limits.maxCutDb);
  return { ...fit, refusedBoostHz, cappedHz, usable };
}

/**
 * Fits the filter bank (one peaking section per 1/3-octave band below 0.45 fs) to a correction per band, on the band
 * centres and the geometric midpoints between them (targets there: the mean of the neighbours); bands not `usable`
 * are held near 0 dB with a small weight. Gains are bounded to +-bound dB.
 */
export function fitFilterBank(
  correction: readonly number[],
  usable: readonly boolean[],
  sampleRate: number,
  bound: number,
): Pick<MatchEqDesign, 'correctionDb' | 'achievedDb' | 'eq'> {
  const centres = THIRD_OCTAVE_CENTRES;
  const nyquistLimit = 0.45 * sampleRate;
  const sectionsHz = centres.filter((f) => f < nyquistLimit);
  const grid: Array<{ f: number; desired: number; weight: number }> = [];
  centres.forEach((f, i) => {
    if (f >= nyquistLimit) return;
    const w = !usable[i] ? 0.05 : inDistanceBand(i) ? 1 : 0.3;
    grid.push({ f, desired: correction[i]!, weight: w });
    const next = centres[i + 1];
    if (next !== undefined && next < nyquistLimit) {
      grid.push({
        f: Math.sqrt(f * next),
        desired: (correction[i]! + correction[i + 1]!) / 2,
        weight: 0.5 * w,
      });
    }
  });
  const basis = grid.map((p) =>
    sectionsHz.map((fk) => cascadeResponseDb([peaking(fk, sampleRate, 1, MATCH_Q)], p.f, sampleRate)),
  );
  const weights = grid.map((p) => p.weight);
  const sectionsOf = (g: number[]): Biquad[] => sectionsHz.map((fk, k) => peaking(fk, sampleRate, g[k]!, MATCH_Q));
  let gains = fitGains(
    basis,
    grid.map((p) => p.desired),
    weights,
    0.01,
  );
  for (let pass = 0; pass < 3; pass++) {
    const sections = sectionsOf(gains);
    const residual = grid.map((p) => p.desired - cascadeResponseDb(sections, p.f, sampleRate));
    const delta = fitGains(basis, residual, weights, 0.01);
    gains = gains.map((g, k) => Math.max(-bound, Math.min(bound, g + delta[k]!)));
  }
  const sections = sectionsOf(gains);
  const achieved = centres.map((f) => (f < nyquistLimit ? cascadeResponseDb(sections, f, sampleRate) : 0));
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    correctionDb: correction.map(round),
    achievedDb: achieved.map(round),
    eq: sectionsHz.map((f, k) => ({
      freqHz: THIRD_OCTAVE_NOMINAL[centres.indexOf(f)]!,
      exactHz: f,
      gainDb: round(gains[k]!),
      q: round(MATCH_Q),
    })),
  };
}

/** The filter bank of a design as biquads (sections under 0.05 dB are dropped: inaudible, and a pass each). */
export function matchSections(eq: readonly EqBand[], sampleRate: number): Biquad[] {
  return eq
    .filter((b) => Math.abs(b.gainDb) >= 0.05)
    .map((b) => peaking(b.exactHz ?? b.freqHz, sampleRate, b.gainDb, b.q));
}

/** A match design as the report's tonal decision (the shape the style EQ reports). */
export function tonalDecisionOf(
  design: Pick<MatchEqDesign, 'correctionDb' | 'achievedDb' | 'eq'>,
  currentDb: ReadonlyArray<number | null>,
  referenceDb: ReadonlyArray<number | null>,
  highpassHz: number,
): TonalDecision {
  const cur = floored(currentDb);
  const ref = floored(referenceDb);
  return {
    bandsHz: [...THIRD_OCTAVE_NOMINAL],
    differenceDb: cur.map((v, i) => (v === null || ref[i] === null ? null : Math.round((v - ref[i]!) * 100) / 100)),
    correctionDb: design.correctionDb,
    achievedDb: design.achievedDb,
    eq: design.eq,
    highpassHz,
  };
}

const FRAME = 16384;
/** Frames of the excerpt (17.8 s at 44.1 kHz): the change the chain makes is measured on the same frames before and after. */
const PROXY_FRAMES = 48;
/** Samples run through the chain ahead of each analysis frame, so filters, compressor and limiter have settled. */
const WARM_UP = 4096;

export interface ProxyChain {
  /** The EQ sections (with the high-pass) to try. */
  eq: Biquad[];
  /** Dynamics and stereo stages as the real chain will run them (planned and applied on the excerpt). */
  dynamics: (pcm: Pcm) => Promise<void>;
  stereo: (pcm: Pcm) => Promise<void>;
  limiter: LimiterParams;
  targetLufs: number;
  maxPushDb: number;
}

/**
 * How the chain would change the curve of `pcm`, band by band (dB), estimated on an excerpt: up to 48 frames of 16384
 * samples, evenly spaced (17.8 s of a 4-minute song at 44.1 kHz), each with 4096 samples of run-in, go through the EQ,
 * the dynamics, the stereo stage and a proxy of the limiter (the same gain computer and loudness search, on the
 * sample-peak envelope instead of the 4x true-peak one, at a quarter of the gain rate). The frames' curve after,
 * minus their curve before, is the change; measuring both on the same frames keeps the excerpt's own balance out of
 * it. Short inputs are run whole. `pcm` is not changed.
 */
export async function proxyChainCurve(pcm: Pcm, chain: ProxyChain): Promise<Array<number | null>> {
  const n = frameCount(pcm);
  const total = Math.max(1, Math.floor((n - FRAME) / FRAME) + 1);
  const count = Math.min(PROXY_FRAMES, total);
  const segment = FRAME + WARM_UP;
  const whole = n <= FRAME || count * segment >= 0.6 * n;
  const starts: number[] = [];
  for (let i = 0; i < count; i++) starts.push(Math.round((i * (n - FRAME)) / Math.max(1, count - 1)));
  const excerpt: Pcm = whole
    ? { sampleRate: pcm.sampleRate, channels: pcm.channels.map((c) => c.slice()) }
    : {
        sampleRate: pcm.sampleRate,
        channels: pcm.channels.map((c) => {
          const y = new Float32Array(count * segment);
          starts.forEach((s0, k) => {
            const from = Math.max(0, s0 - WARM_UP);
            y.set(c.subarray(from, s0 + FRAME), k * segment + (WARM_UP - (s0 - from)));
          });
          return y;
        }),
      };
  const framesOf = (
    channels: Float32Array[],
    transform: (x: Float32Array, from: number, y: Float32Array, to: number) => void,
  ) =>
    channels.map((ch) => {
      const y = new Float32Array(whole ? n : count * FRAME);
      if (whole) transform(ch, 0, y, 0);
      else for (let k = 0; k < count; k++) transform(ch, k * segment + WARM_UP, y, k * FRAME);
      return y;
    });
  const length = whole ? n : FRAME;
  const copy = (x: Float32Array, from: number, y: Float32Array, to: number) =>
    y.set(x.subarray(from, from + length), to);
  const rawFrames = framesOf(excerpt.channels, copy);
  const rawCurve = curveOf(
    await thirdOctaveSpectrum(rawFrames, pcm.sampleRate),
    integratedLufs(excerpt.channels, pcm.sampleRate),
    pcm.sampleRate,
  );
  await filterInPlace(excerpt, chain.eq);
  await chain.dynamics(excerpt);
  await chain.stereo(excerpt);
  const m = frameCount(excerpt);
  const limiter = new TruePeakLimiter(excerpt, chain.limiter);
  const env = limiter.envelope;
  for (const ch of excerpt.channels) sampleEnvelope(ch, env);
  await limiter.prepareLoudness();
  const ones = new Float32Array(m).fill(1);
  const staticLufs = limiter.estimateLoudness(1, ones);
  const startDb = Number.isFinite(staticLufs) ? chain.targetLufs - staticLufs : 0;
  const g = new Float32Array(Math.ceil(m / 4)).fill(1);
  const search = await searchGain(limiter, chain.targetLufs, startDb, startDb + chain.maxPushDb, g, undefined, 4);
  limiter.release();
  const gain = Math.pow(10, search.gainDb / 20);
  // The limited frames only (the run-in left out), then their spectrum.
  const frames = framesOf(excerpt.channels, (x, from, y, to) => limited(x, g, gain, from, length, y, to));
  const curve = curveOf(await thirdOctaveSpectrum(frames, pcm.sampleRate), search.estimatedLufs, pcm.sampleRate);
  // What the chain changed, band by band, on the same frames.
  return curve.map((v, i) => (v === null || rawCurve[i] === null ? null : v - rawCurve[i]!));
}

/** env[i] = max(env[i], |x[i]|). */
function sampleEnvelope(x: Float32Array, env: Float32Array): void {
  for (let i = 0; i < x.length; i++) {
    const a = x[i]! < 0 ? -x[i]! : x[i]!;
    if (a > env[i]!) env[i] = a;
  }
}

/** y[to + i] = x[from + i] * gain * g[(from + i) / 4] for i < length. */
function limited(
  x: Float32Array,
  g: Float32Array,
  gain: number,
  from: number,
  length: number,
  y: Float32Array,
  to: number,
): void {
  for (let i = 0; i < length; i++) y[to + i] = x[from + i]! * gain * g[(from + i) >> 2]!;
}
