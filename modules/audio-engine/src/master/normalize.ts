/**
 * Loudness normalisation under a true-peak ceiling, in place (the returned `out` is `pcm`): band-limits the signal to 19.8 kHz (4th-order Butterworth) so
 * that the true-peak detector's pass band covers all of it (see dsp/true-peak) and so that the 44.1 <-> 48 kHz
 * resampler, whose pass band ends at 20 kHz, keeps the waveform (and its peaks) as it is, then finds the input gain for which the limited output reaches the target (limiter.searchGain on the
 * estimate), renders it, measures the rendered output with the BS.1770 meter and corrects the residual (at most
 * twice). Shared by mastering and enhancement.
 */
import { filterInPlace, lowpass } from '../dsp/biquad';
import type { Tick } from '../stage/context';
import { blockEnergies, integratedLoudness } from '../analysis/loudness';
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
  /** The rendered output's K-weighted 100 ms step energies the measure read. */
  measuredSteps: { steps: Float64Array; hop: number };
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
  const stage = await LoudnessLimiter.prepare(pcm, targetLufs, params, (f) => tick(f * 0.6));
  return stage.render(null, pcm, (f) => tick(0.6 + f * 0.4));
}

/**
 * The loudness stage prepared once and rendered as often as asked: band-limited, K-weighted and peak-detected once,
 * then limited to the target, and again with a ride on its input (`render`'s per-sample gain: reference mastering's
 * leveler) from the same envelope (see limiter.ts). A stage made `forRides` keeps its own copy of the band-limited
 * input, renders into the `out` it is given, and detects the peaks that input gains up to `rideHeadroomDb` higher
 * could bring to the ceiling; a render whose ride asks for more gain than that is held to it. Each render after the
 * first starts its search from the last one's gain plus the loudness its ride took away, and from the slope that
 * search ended on (a master pushed into the limiter gains a fraction of a LU per dB).
 */
export class LoudnessLimiter {
  private last: { gainDb: number; staticLufs: number; slope: number } | null = null;
  /** The probe's coarse search, for the unridden render that follows it. */
  private probed: CoarseSearch | null = null;
  private released = false;

  private constructor(
    private readonly limiter: TruePeakLimiter,
    private readonly targetLufs: number,
    readonly bandLimitHz: number,
    /** The unridden input's loudness without the limiter, LUFS. */
    private readonly staticLufs: number,
    /** The largest input gain the envelope covers, dB. */
    private readonly coveredDb: number,
    private readonly rides: boolean,
    private readonly g: Float32Array,
  ) {}

  static async prepare(
    pcm: Pcm,
    targetLufs: number,
    params: LimiterParams,
    tick: Tick,
    forRides?: { rideHeadroomDb: number },
  ): Promise<LoudnessLimiter> {
    const bandLimitHz = await bandLimit(pcm);
    const source = forRides
      ? { sampleRate: pcm.sampleRate, channels: pcm.channels.map((ch) => Float32Array.from(ch)) }
      : pcm;
    const limiter = new TruePeakLimiter(source, params);
    await limiter.prepareLoudness((f) => tick(f * 0.25));
    const g = new Float32Array(frameCount(pcm)).fill(1);
    const staticLufs = limiter.estimateLoudness(1, g);
    const startDb = Number.isFinite(staticLufs) ? targetLufs - staticLufs : 0;
    const coveredDb = startDb + MAX_LIMITER_PUSH_DB + (forRides?.rideHeadroomDb ?? 0);
    // g serves as the envelope's scratch (a whole-song array less to page in), then starts again from unity.
    await limiter.prepare(Math.pow(10, coveredDb / 20), (f) => tick(0.25 + f * 0.75), g);
    return new LoudnessLimiter(limiter, targetLufs, bandLimitHz, staticLufs, coveredDb, !!forRides, g);
  }

  /**
   * The unridden master's K-weighted 100 ms step energies as the coarse search expects them, before anything is
   * rendered (reference mastering's leveler reads its range from them, and only then asks for the master, ridden or
   * not: an unridden `render` next starts from this search).
   */
  async probe(tick: Tick): Promise<{ steps: Float64Array; hop: number }> {
    const coarse = await this.coarseSearch(null, tick);
    this.probed = coarse;
    this.last = { gainDb: coarse.search.gainDb, staticLufs: coarse.staticLufs, slope: coarse.search.slope };
    return this.limiter.estimateSteps(Math.pow(10, coarse.search.gainDb / 20), this.g, 16);
  }

  /**
   * The search on the envelope's maxima over 16 samples, from the last search's gain and slope (the static gain
   * and no limiting the first time), within the push limit and what the envelope covers with `ride`.
   */
  private async coarseSearch(ride: Float32Array | null, tick: Tick): Promise<CoarseSearch> {
    this.check(ride);
    const { limiter, g, targetLufs } = this;
    limiter.setRide(ride);
    let staticLufs = this.staticLufs;
    // The highest input gain this render may try: the push limit, within what the envelope covers (with the ride).
    let coveredDb = this.coveredDb;
    if (ride) {
      g.set(ride.subarray(0, g.length));
      staticLufs = limiter.estimateLoudness(1, g);
      let peak = 0;
      for (let i = 0; i < g.length; i++) if (g[i]! > peak) peak = g[i]!;
      // Less the ride's largest gain, and the 1 dB a correction may add.
      coveredDb -= 20 * Math.log10(peak) + 1;
    }
    const startDb = Number.isFinite(staticLufs) ? targetLufs - staticLufs : 0;
    const maxDb = Math.min(startDb + MAX_LIMITER_PUSH_DB, coveredDb);
    const fromDb = this.last ? this.last.gainDb + (this.last.staticLufs - staticLufs) : startDb;
    g.fill(1);
    const search = await searchGain(limiter, targetLufs, fromDb, maxDb, g, tick, 16, this.last?.slope ?? 1);
    return { ride, staticLufs, maxDb, search };
  }

  /**
   * Limits the input, times `ride` when given, to the target and renders it into `out` (the input itself unless
   * the stage was made for rides). A stage not made for rides renders once. The result's `predictedPeaks` is the
   * stage's scratch: the next render overwrites it.
   */
  async render(ride: Float32Array | null, out: Pcm, tick: Tick): Promise<NormalizeResult> {
    this.check(ride);
    const { limiter, g, targetLufs } = this;
    // The exact curve from the coarse search's gain (the probe's, when this is the master it probed), on its slope.
    const probed = this.probed && ride === null && this.probed.ride === null ? this.probed : null;
    this.probed = null;
    // (The coarse search put the ride on the limiter; the probe, none.)
    const coarse = probed ?? (await this.coarseSearch(ride, (f) => tick(f * 0.3)));
    const { staticLufs, maxDb } = coarse;
    g.fill(1);
    const step = (f: number) => tick(0.3 + f * 0.15);
    let search = await searchGain(limiter, targetLufs, coarse.search.gainDb, maxDb, g, step, 1, coarse.search.slope);
    const slope = search.slope;
    search = { ...search, iterations: coarse.search.iterations + search.iterations };
    // Measure the real output and correct what the estimate missed (at most twice), then render.
    let correctionDb = 0;
    let measured = limiter.measureSteps(Math.pow(10, search.gainDb / 20), g);
    let measuredLufs = loudnessOf(measured);
    for (let pass = 0; pass < 2; pass++) {
      const error = targetLufs - measuredLufs;
      if (!Number.isFinite(error) || Math.abs(error) < 0.03) break;
      correctionDb += error;
      search = await searchGain(limiter, search.estimatedLufs + error, search.gainDb + error, maxDb + 1, g);
      measured = limiter.measureSteps(Math.pow(10, search.gainDb / 20), g);
      measuredLufs = loudnessOf(measured);
    }
    const limitedBy = targetLufs - measuredLufs > TARGET_TOLERANCE_LU ? whyShort(limiter, search) : null;
    this.last = { gainDb: search.gainDb, staticLufs, slope };
    await tick(0.75);
    if (!this.rides) this.release();
    const gain = Math.pow(10, search.gainDb / 20);
    await limiter.apply(gain, g, out);
    const predictedPeaks = limiter.predictPeaks(gain, g);
    await tick(1);
    return {
      bandLimitHz: this.bandLimitHz,
      out,
      search,
      correctionDb,
      measuredLufs,
      measuredSteps: measured,
      predictedPeaks,
      limitedBy,
    };
  }

  private check(ride: Float32Array | null): void {
    if (this.released) throw new Error('this loudness stage has rendered and released its input');
    if (ride && !this.rides) throw new Error('a loudness stage made for rides');
  }

  /** Frees the K-weighted input and the coarse envelope: no render after this. */
  release(): void {
    this.limiter.release();
    this.released = true;
  }
}

interface CoarseSearch {
  ride: Float32Array | null;
  /** The (ridden) input's loudness without the limiter, LUFS. */
  staticLufs: number;
  /** The highest input gain the searches may try, dB. */
  maxDb: number;
  search: LoudnessSearch;
}

const loudnessOf = ({ steps, hop }: { steps: Float64Array; hop: number }): number =>
  integratedLoudness(blockEnergies(steps, hop, 4)).lufs;

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
