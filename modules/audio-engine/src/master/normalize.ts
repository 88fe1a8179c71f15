/**
 * Loudness normalisation under a true-peak ceiling, in place (the returned `out` is `pcm`): band-limits the signal to 19.8 kHz (4th-order Butterworth) so
 * that the true-peak detector's pass band covers all of it (see dsp/true-peak) and so that the 44.1 <-> 48 kHz
 * resampler, whose pass band ends at 20 kHz, keeps the waveform (and its peaks) as it is, then finds the input gain for which the limited output reaches the target (limiter.searchGain on the
 * estimate), renders it, measures the rendered output with the BS.1770 meter and corrects the residual (at most
 * twice). Shared by mastering and enhancement.
 */
import { filterInPlace, lowpass } from '../dsp/biquad';
import type { Tick } from '../job/context';
import { type Pcm, frameCount } from '../pcm';
import { type LimiterParams, type LoudnessSearch, TruePeakLimiter, searchGain } from './limiter';

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
}

/** Largest gain above the static (limiter-free) gain the search may use, dB. */
export const MAX_LIMITER_PUSH_DB = 12;

export async function normalizeLoudness(
  pcm: Pcm,
  targetLufs: number,
  params: LimiterParams,
  tick: Tick,
): Promise<NormalizeResult> {
  const fs = pcm.sampleRate;
  const bandLimitHz = Math.round(Math.min(BAND_LIMIT_HZ, 0.45 * fs));
  // 4th-order Butterworth = two sections with Q = 1 / (2 cos(pi/8)) and 1 / (2 cos(3 pi/8)).
  await filterInPlace(pcm, [lowpass(bandLimitHz, fs, 0.5411961), lowpass(bandLimitHz, fs, 1.306563)]);
  const limiter = new TruePeakLimiter(pcm, params);
  await limiter.prepareLoudness((f) => tick(f * 0.15));
  const g = new Float32Array(frameCount(pcm)).fill(1);
  const processedLufs = limiter.estimateLoudness(1, g);
  const startDb = Number.isFinite(processedLufs) ? targetLufs - processedLufs : 0;
  const maxDb = startDb + MAX_LIMITER_PUSH_DB;
  await limiter.prepare(Math.pow(10, maxDb / 20), (f) => tick(0.15 + f * 0.45));
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
  await tick(0.9);
  limiter.release();
  const gain = Math.pow(10, search.gainDb / 20);
  await limiter.apply(gain, g, pcm);
  const out = pcm;
  const predictedPeaks = limiter.predictPeaks(gain, g);
  await tick(1);
  return { bandLimitHz, out, search, correctionDb, measuredLufs: measured, predictedPeaks };
}
