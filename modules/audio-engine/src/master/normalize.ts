/**
 * Loudness normalisation under a true-peak ceiling, in place (the returned `out` is `pcm`): band-limits the signal to 19.8 kHz (4th-order Butterworth) so
 * that the true-peak detector's pass band covers all of it (see dsp/true-peak) and so that the 44.1 <-> 48 kHz
 * resampler, whose pass band ends at 20 kHz, keeps the waveform (and its peaks) as it is, then finds the input gain for which the limited output reaches the target (limiter.searchGain on the
 * estimate), renders it, measures the rendered output with the BS.1770 meter and corrects the residual (at most
 * twice). Shared by mastering and enhancement.
 */
import { filterInPlace, lowpass } from '../dsp/biquad';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';
import { type GainStats, type LimiterParams, type LoudnessSearch, TruePeakLimiter, searchGain } from './limiter';

/** Corner of the band-limiting low-pass, Hz (at most 0.45 fs). */
export const BAND_LIMIT_HZ = 19800;

export interface NormalizeResult {
  bandLimitHz: number;
  out: Pcm;
  search: LoudnessSearch;
  /** Gain added after measuring the rendered output, dB. */
  correctionDb: number;
  /** Loudness measured on the rendered output, LUFS. */
  measuredLufs: number;
  /** The limiter's predicted true-peak envelope of `out` (linear, per sample, all channels). */
  predictedPeaks: Float32Array;
  /**
   * Why the output stays more than TARGET_TOLERANCE_LU under the target, or null when it lands within it:
   * `true-peak-ceiling` when the output is pinned against the ceiling (3 dB more input gain would add less than 1 LU:
   * only more limiting, not more loudness), `max-limiting` when more gain would still get louder but would take the
   * limiter past MAX_LIMITER_PUSH_DB, the rule that keeps it from flattening the dynamics.
   */
  limitedBy: LoudnessLimit | null;
}

export type LoudnessLimit = 'true-peak-ceiling' | 'max-limiting';

/**
 * Largest gain above the static (limiter-free) gain the search may use, dB: the safety rule that bounds how hard the
 * limiter is driven to reach a target.
 */
export const MAX_LIMITER_PUSH_DB = 12;
/** A loudness target counts as reached when the output measures within this of it, LU. */
export const TARGET_TOLERANCE_LU = 0.5;
/** Loudness gained per dB of input gain below which the output counts as pinned against the ceiling, LU/dB. */
const PINNED_SLOPE = 1 / 3;

/** The band-limiting low-pass of `pcm` (in place), at BAND_LIMIT_HZ or 0.45 fs; returns its corner, Hz. */
async function bandLimit(pcm: Pcm): Promise<number> {
  const fs = pcm.sampleRate;
  const bandLimitHz = Math.round(Math.min(BAND_LIMIT_HZ, 0.45 * fs));
  // 4th-order Butterworth = two sections with Q = 1 / (2 cos(pi/8)) and 1 / (2 cos(3 pi/8)).
  await filterInPlace(pcm, [lowpass(bandLimitHz, fs, 0.5411961), lowpass(bandLimitHz, fs, 1.306563)]);
  return bandLimitHz;
}

/**
 * Holds `pcm` under the limiter's ceiling at its own level, in place: band-limited as the master is (so the
 * detector covers all of it), then limited only where its true peak would pass the ceiling. For signals that share a
 * master's ceiling without being mastered (the mixer's per-track files). Returns the reduction statistics and the
 * limiter's predicted peaks (a hint for the meter).
 */
export async function limitPeaks(
  pcm: Pcm,
  params: LimiterParams,
  tick?: Tick,
): Promise<{ stats: GainStats; predictedPeaks: Float32Array }> {
  await bandLimit(pcm);
  const limiter = new TruePeakLimiter(pcm, params);
  await limiter.prepare(1, tick ? (f) => tick(f * 0.8) : undefined);
  const g = new Float32Array(frameCount(pcm));
  const stats = limiter.gainCurve(1, g);
  await limiter.apply(1, g, pcm);
  const predictedPeaks = limiter.predictPeaks(1, g);
  if (tick) await tick(1);
  return { stats, predictedPeaks };
}

export async function normalizeLoudness(
  pcm: Pcm,
  targetLufs: number,
  params: LimiterParams,
  tick: Tick,
): Promise<NormalizeResult> {
  const bandLimitHz = await bandLimit(pcm);
  const limiter = new TruePeakLimiter(pcm, params);
  await limiter.prepareLoudness((f) => tick(f * 0.15));
  const g = new Float32Array(frameCount(pcm)).fill(1);
  const processedLufs = limiter.estimateLoudness(1, g);
  const startDb = Number.isFinite(processedLufs) ? targetLufs - processedLufs : 0;
  const maxDb = startDb + MAX_LIMITER_PUSH_DB;
  // g serves as the envelope's scratch (a whole-song array less to page in), then starts again from unity.
  await limiter.prepare(Math.pow(10, maxDb / 20), (f) => tick(0.15 + f * 0.45), g);
  g.fill(1);
  // Coarse search on the 4-sample envelope maxima, then the exact curve at the gain found.
  const coarse = await searchGain(limiter, targetLufs, startDb, maxDb, g, (f) => tick(0.6 + f * 0.15), 4);
  let search = await searchGain(limiter, targetLufs, coarse.gainDb, maxDb, g, (f) => tick(0.75 + f * 0.05));
  search = { ...search, iterations: coarse.iterations + search.iterations };
  // Measure the real output and correct what the estimate missed (at most twice), then render in place.
  let correctionDb = 0;
  let measured = limiter.measure(Math.pow(10, search.gainDb / 20), g);
  for (let pass = 0; pass < 2; pass++) {
    const error = targetLufs - measured;
    if (!Number.isFinite(error) || Math.abs(error) < 0.03) break;
    correctionDb += error;
    search = await searchGain(limiter, search.estimatedLufs + error, search.gainDb + error, maxDb + 1, g);
    measured = limiter.measure(Math.pow(10, search.gainDb / 20), g);
  }
  const limitedBy = targetLufs - measured > TARGET_TOLERANCE_LU ? whyShort(limiter, search) : null;
  await tick(0.9);
  limiter.release();
  const gain = Math.pow(10, search.gainDb / 20);
  await limiter.apply(gain, g, pcm);
  const out = pcm;
  const predictedPeaks = limiter.predictPeaks(gain, g);
  await tick(1);
  return { bandLimitHz, out, search, correctionDb, measuredLufs: measured, predictedPeaks, limitedBy };
}

/**
 * Why the search stopped short of the target at the gain it ended on: the loudness estimated 3 dB lower tells
 * whether more gain still buys loudness (then the push limit stopped it) or only more limiting (the output is already
 * pinned against the ceiling).
 */
function whyShort(limiter: TruePeakLimiter, search: LoudnessSearch): LoudnessLimit {
  const probe = new Float32Array(limiter.envelope.length);
  const lowerGain = Math.pow(10, (search.gainDb - 3) / 20);
  limiter.gainCurve(lowerGain, probe);
  const lower = limiter.estimateLoudness(lowerGain, probe);
  return (search.estimatedLufs - lower) / 3 < PINNED_SLOPE ? 'true-peak-ceiling' : 'max-limiting';
}
