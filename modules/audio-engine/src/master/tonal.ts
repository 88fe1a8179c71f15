/**
 * Tonal balance: compare the input's long-term 1/3-octave spectrum with a target shape (a style curve or a reference
 * track's spectrum), derive a bounded correction, and realise it as a minimum-phase graphic EQ of octave-spaced
 * peaking sections whose gains are fitted to the correction by regularised least squares (two refinement passes on
 * the exact cascade response).
 *
 * The comparison is about shape only: the offset between the curves is removed by a weighted mean over 50 Hz-12 kHz,
 * so the EQ leaves overall loudness roughly unchanged. Safeguards: bands where the input has (almost) no energy are
 * never boosted (no point raising 25 Hz rumble that is not there, or noise above a lowpass), boosts and cuts are
 * capped per intensity, the extremes (below 40 Hz, above 12.5 kHz) get at most a third of the cap, and the correction
 * is smoothed to about octave resolution before fitting.
 */
import { type Biquad, cascadeResponseDb, highpass, peaking } from '../dsp/biquad';
import { THIRD_OCTAVE_CENTRES, THIRD_OCTAVE_NOMINAL } from '../analysis/spectrum';
import type { Spectrum } from '../analysis/spectrum';
import { OCTAVE_POINTS_HZ, curveAt } from './styles';

export interface EqBand {
  /** Nominal centre, Hz. */
  freqHz: number;
  /** Exact centre when it differs from the nominal one (third-octave filter bank: 10^(k/10) Hz). */
  exactHz?: number;
  gainDb: number;
  q: number;
}

export interface TonalDecision {
  bandsHz: number[];
  /** Input band levels relative to the target after removing the offset (dB, null where not compared). */
  differenceDb: Array<number | null>;
  /** Correction asked for after smoothing, bounds and intensity scaling, dB per band. */
  correctionDb: number[];
  /** Response the fitted EQ actually produces at the band centres, dB. */
  achievedDb: number[];
  eq: EqBand[];
  /** Subsonic high-pass corner, Hz. */
  highpassHz: number;
}

export interface TonalOptions {
  sampleRate: number;
  /** Largest boost or cut, dB. */
  maxDb: number;
  /** Fraction of the (bounded) difference to correct, 0..1. */
  amount: number;
}

const EQ_Q = Math.SQRT2; // one-octave bandwidth
const HIGHPASS_HZ = 20;

/** Target band levels from a style curve, per 1/3-octave band. */
export function styleTarget(octaveCurveDb: readonly number[]): number[] {
  return THIRD_OCTAVE_CENTRES.map((f) => curveAt(octaveCurveDb, f));
}

function solve(a: number[][], b: number[]): number[] {
  // Gaussian elimination with partial pivoting on a small dense system.
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / p;
      if (f === 0) continue;
      for (let k = col; k <= n; k++) m[r]![k] = m[r]![k]! - f * m[col]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

/**
 * Weighted ridge least squares: gains g minimising sum_i w_i (A g - d)_i^2 + lambda |g|^2 (the style EQ's fit and the
 * reference match's). Rows of zero weight and zero basis entries add nothing and are skipped.
 */
export function fitGains(basis: number[][], desired: number[], weights: number[], lambda: number): number[] {
  const k = basis[0]?.length ?? 0;
  const ata = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const atd = new Array<number>(k).fill(0);
  basis.forEach((row, i) => {
    const w = weights[i]!;
    if (w === 0) return;
    for (let p = 0; p < k; p++) {
      if (row[p] === 0) continue;
      atd[p] = atd[p]! + w * row[p]! * desired[i]!;
      for (let q = 0; q < k; q++) ata[p]![q] = ata[p]![q]! + w * row[p]! * row[q]!;
    }
  });
  for (let p = 0; p < k; p++) ata[p]![p] = ata[p]![p]! + lambda;
  return solve(ata, atd);
}

/** EQ sections (bands under 0.2 dB are dropped: each costs a pass over the audio for an inaudible change). */
export function eqSections(eq: readonly EqBand[], sampleRate: number, highpassHz = HIGHPASS_HZ): Biquad[] {
  const sections = eq
    .filter((b) => Math.abs(b.gainDb) >= 0.05)
    .map((b) => peaking(b.freqHz, sampleRate, b.gainDb, b.q));
  return [highpass(highpassHz, sampleRate), ...sections];
}

/** Designs the tonal-balance EQ from the input spectrum and a target shape (both per 1/3-octave band). */
export function designTonalEq(input: Spectrum, targetDb: readonly number[], options: TonalOptions): TonalDecision {
  const { sampleRate, maxDb, amount } = options;
  const centres = THIRD_OCTAVE_CENTRES;
  const nyquistLimit = 0.45 * sampleRate;
  const finiteLevels = input.levelsDb.filter((v) => Number.isFinite(v));
  const loudest = finiteLevels.length ? Math.max(...finiteLevels) : 0;
  const usable = centres.map(
    (f, i) => f < nyquistLimit && Number.isFinite(input.levelsDb[i]!) && Number.isFinite(targetDb[i]!),
  );
  // Offset: weighted mean difference over 50 Hz - 12 kHz.
  let wsum = 0;
  let dsum = 0;
  centres.forEach((f, i) => {
    if (!usable[i] || f < 50 || f > 12500) return;
    wsum += 1;
    dsum += targetDb[i]! - input.levelsDb[i]!;
  });
  const offset = wsum ? dsum / wsum : 0;
  const raw = centres.map((_, i) => (usable[i] ? targetDb[i]! - input.levelsDb[i]! - offset : 0));
  const smooth = raw.map((_, i) => {
    let s = 0;
    let w = 0;
    for (const [d, wt] of [
      [-1, 0.25],
      [0, 0.5],
      [1, 0.25],
    ] as const) {
      const j = i + d;
      if (j >= 0 && j < raw.length && usable[j]) {
        s += raw[j]! * wt;
        w += wt;
      }
    }
    return w ? s / w : 0;
  });
  const correction = smooth.map((d, i) => {
    if (!usable[i]) return 0;
    const f = centres[i]!;
    const edge = f < 40 || f > 12500;
    const cap = edge ? maxDb / 3 : maxDb;
    let c = Math.max(-cap, Math.min(cap, d)) * amount;
    // Never boost a band the input barely has (more than 45 dB below its loudest band).
    if (input.levelsDb[i]! < loudest - 45 && c > 0) c = 0;
    return c;
  });
  const eqFreqs = OCTAVE_POINTS_HZ.filter((f) => f < nyquistLimit);
  const basis = centres.map((f) =>
    eqFreqs.map((fk) => (f < nyquistLimit ? cascadeResponseDb([peaking(fk, sampleRate, 1, EQ_Q)], f, sampleRate) : 0)),
  );
  const weights = centres.map((f, i) => (!usable[i] ? 0 : f < 40 || f > 12500 ? 0.3 : 1));
  let gains = fitGains(basis, correction, weights, 0.02);
  const response = (g: number[]) => {
    const sections = eqFreqs.map((fk, k) => peaking(fk, sampleRate, g[k]!, EQ_Q));
    return centres.map((f) => (f < nyquistLimit ? cascadeResponseDb(sections, f, sampleRate) : 0));
  };
  for (let pass = 0; pass < 2; pass++) {
    const achieved = response(gains);
    const residual = correction.map((c, i) => c - achieved[i]!);
    const delta = fitGains(basis, residual, weights, 0.02);
    gains = gains.map((g, k) => Math.max(-maxDb - 1, Math.min(maxDb + 1, g + delta[k]!)));
  }
  const round = (v: number) => Math.round(v * 100) / 100;
  const achieved = response(gains);
  return {
    bandsHz: [...THIRD_OCTAVE_NOMINAL],
    differenceDb: raw.map((d, i) => (usable[i] ? round(-d) : null)),
    correctionDb: correction.map(round),
    achievedDb: achieved.map(round),
    eq: eqFreqs.map((f, k) => ({ freqHz: f, gainDb: round(gains[k]!), q: round(EQ_Q) })),
    highpassHz: HIGHPASS_HZ,
  };
}
