/**
 * The loudness-range leveler of reference mastering: a slow gain ride that narrows the master's loudness range (EBU
 * Tech 3342 LRA) to the reference's when the chain left it wider. The three-band compressor works on transients and
 * phrases (tens of milliseconds to a second) and barely moves the range of a piece whose verses sit 10 LU under its
 * choruses; a mastering engineer rides the fader for that, and so does this stage.
 *
 * The ride: the short-term loudness (3 s, every 100 ms, as the LRA reads it) gives each step its distance from the
 * programme's middle (the median of the gated short-term values); a share `depth` of that distance is taken away (a
 * loud passage lowered, a quiet one raised), within +-`MAX_GAIN_DB`, smoothed forward and backward over `SMOOTH_SEC`
 * so that it never pumps. Below the range's relative gate (fades, silence) the lift fades out over 10 LU, so pauses
 * keep their noise floor. The depth for a given range is found by bisection: K-weighting is linear, so a gain held
 * over a 100 ms step scales that step's K-weighted energy by its square, and the range of each try is read from the
 * steps measured once.
 *
 * It rides before the limiter (after it, lifting the quiet passages brings blocks over the integrated loudness's
 * relative gate and lowers the loudness, which no static gain can restore without raising the limited peaks), so
 * the limiter then narrows the range a little more, by an amount no model here predicts. Hence measure and correct
 * (`limitToRange`): the chain's master is probed as the limiter will make it and its range read; only when it is
 * wider than the reference's by more than `LEVELER_SLACK_LU` is the limiter's input ridden and limited, aiming the
 * ride so that the master lands on the reference's range (at most `PASSES` rides, the aim corrected by the secant
 * through the passes so far).
 *
 * The other way round, a loud reference over a dynamic target: the loudness search pushes the whole piece into the
 * limiter until its quiet passages are pinned too, and a song of 20 LU comes out at 5 against a reference of 15. The
 * range is then widened, by the same ride away from the middle (a negative depth): the quiet passages lowered before
 * the limiter, never a loud one raised (that would only feed the limiter), so the loudness comes from the loud ones
 * as the reference's does. It restores at most the range the limiter took (the limiter input's own), and never
 * costs the loudness: a pass that lands more than `LOUDNESS_SLACK_LU` under the target, or narrower than without a
 * ride, is not kept.
 */
import {
  blockEnergies,
  energyToLufs,
  integratedLoudness,
  LoudnessAccumulator,
  loudnessRange,
  rangeGating,
} from '../analysis/loudness';
import { applyRamp } from '../dsp/envelope';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';

export interface RangeLevelerDecision {
  applied: boolean;
  /**
   * The master's loudness range as the chain made it (without a ride, as the loudness stage's probe gives it: the
   * mastering chain's is its gain search's estimate), the reference's, and the master's after the ride, LU.
   */
  fromLu: number;
  referenceLu: number;
  toLu: number;
  /**
   * The share of each passage's distance from the middle level taken away (0 to `MAX_DEPTH`), or, negative, added to
   * the quiet passages' (down to `-MAX_WIDEN`: the range widened).
   */
  depth: number;
  /** The largest lift and cut of the ride, dB. */
  maxBoostDb: number;
  maxCutDb: number;
  /** Times the limiter ran (1: no ride). */
  limiterPasses: number;
  reason: string;
}

/** LU of range above the reference's left alone (as the compressor's `REFERENCE_LRA_SLACK_LU`). */
export const LEVELER_SLACK_LU = 1;
/** The master aims this far above the reference's range. */
const AIM_LU = 0.3;
/** A pass landing within this of the aim ends the search, LU. */
const TOLERANCE_LU = 0.6;
/** Rides tried at most (each one limiter pass more). */
const PASSES = 2;
/** At most this share of a passage's distance from the middle is taken away: the piece keeps its shape. */
const MAX_DEPTH = 0.8;
/** Widening: a quiet passage is lowered by at most this share of its distance below the middle (and MAX_GAIN_DB). */
const MAX_WIDEN = 1.5;
/** Depths tried between no ride and `-MAX_WIDEN`, looking for the widest range. */
const WIDEN_SAMPLES = 12;
/** A widening pass may leave the master at most this far under the loudness target, LU. */
const LOUDNESS_SLACK_LU = 0.1;
/** The ride's gain stays within +-this, dB. */
const MAX_GAIN_DB = 9;
/**
 * The input gain a ridden pass may need above the unridden one's, dB: the ride's largest lift, or the make-up for
 * its largest cut (the loudness stage's peak detection covers that much more).
 */
export const RIDE_HEADROOM_DB = 2 * MAX_GAIN_DB;
/** Time constant of the forward-backward smoothing of the ride, s. */
const SMOOTH_SEC = 1.5;
/** Short-term blocks are 3 s: 30 steps of 100 ms. */
const SHORT_TERM_STEPS = 30;

/**
 * K-weighted energies of the 100 ms steps of `pcm`, scaled to `atLufs` integrated when given: the range's absolute
 * gate (-70 LUFS) reads a -30 LUFS input otherwise than the master the limiter will make of it at its target.
 */
function stepsOf(pcm: Pcm, atLufs?: number): { steps: Float64Array; hop: number } {
  const acc = new LoudnessAccumulator(pcm.sampleRate, pcm.channels.length);
  acc.add(pcm.channels, 0, frameCount(pcm));
  const steps = acc.steps();
  const lufs = loudnessOfSteps(steps, acc.hop);
  if (atLufs === undefined || !Number.isFinite(lufs)) return { steps, hop: acc.hop };
  const scale = Math.pow(10, (atLufs - lufs) / 10);
  return { steps: steps.map((e) => e * scale), hop: acc.hop };
}

const rangeOfSteps = (steps: Float64Array, hop: number): number =>
  loudnessRange(blockEnergies(steps, hop, SHORT_TERM_STEPS));
const loudnessOfSteps = (steps: Float64Array, hop: number): number =>
  integratedLoudness(blockEnergies(steps, hop, 4)).lufs;

/** The loudness stage the leveler drives: it holds the limiter's input and limits it, times a ride, into the master. */
export interface RideableStage<R> {
  /**
   * The master's K-weighted 100 ms step energies without a ride, before it is rendered when the stage can tell
   * (estimated), else measured on it.
   */
  probe(tick: Tick): Promise<{ steps: Float64Array; hop: number }>;
  /**
   * Limits the input times `ride` (a gain per sample, or none) into the master; answers the stage's result and the
   * master's K-weighted 100 ms step energies.
   */
  limit(ride: Float32Array | null, tick: Tick): Promise<{ result: R; steps: Float64Array; hop: number }>;
}

/**
 * The stage of any loudness step that limits `pcm` in place: a copy of the input is kept and put back, times the
 * ride, before each pass after the first; the master's steps are measured after each.
 */
export function copyingStage<R>(pcm: Pcm, limit: (pcm: Pcm, tick: Tick) => Promise<R>): RideableStage<R> {
  const input = pcm.channels.map((ch) => Float32Array.from(ch));
  let passes = 0;
  // The probe's pass, while `pcm` still holds it: the unridden master asked for next.
  let probed: { result: R; steps: Float64Array; hop: number } | null = null;
  const pass = async (ride: Float32Array | null, tick: Tick) => {
    if (passes++ > 0) pcm.channels.forEach((ch, c) => ch.set(input[c]!));
    if (ride) for (const ch of pcm.channels) for (let i = 0; i < ch.length; i++) ch[i] = ch[i]! * ride[i]!;
    const result = await limit(pcm, tick);
    return { result, ...stepsOf(pcm) };
  };
  return {
    async probe(tick) {
      probed = await pass(null, tick);
      return probed;
    },
    async limit(ride, tick) {
      const kept = ride === null ? probed : null;
      probed = null;
      return kept ?? pass(ride, tick);
    },
  };
}

/**
 * Limits the input `pcm` holds with `stage` (the loudness stage, to `targetLufs`, into `pcm`), then, when the master's
 * range is wider than `referenceLu` by more than the slack, or narrower than the limiter's input allows, rides the
 * limiter's input toward it and limits again (see the file's comment). Answers the last pass's result and what the
 * ride did.
 */
export async function limitToRange<R>(
  pcm: Pcm,
  referenceLu: number,
  targetLufs: number,
  stage: RideableStage<R>,
  tick: Tick,
): Promise<{ result: R; leveler: RangeLevelerDecision }> {
  // A range is narrowed toward the reference's when wider, widened back toward it (up to the limiter input's own) when
  // the limiter took it.
  const { steps, hop } = stepsOf(pcm, targetLufs);
  const inputLu = rangeOfSteps(steps, hop);
  const n = frameCount(pcm);
  const first = await stage.probe((f) => tick(f * 0.3));
  // The master without a ride, when no ride is tried.
  const unridden = async () => (await stage.limit(null, (f) => tick(0.3 + f * 0.7))).result;
  const fromLu = rangeOfSteps(first.steps, first.hop);
  const baseLufs = loudnessOfSteps(first.steps, first.hop);
  const decision: RangeLevelerDecision = {
    applied: false,
    fromLu,
    referenceLu,
    toLu: fromLu,
    depth: 0,
    maxBoostDb: 0,
    maxCutDb: 0,
    limiterPasses: 1,
    reason: `loudness range ${fromLu.toFixed(1)} LU, within ${LEVELER_SLACK_LU} LU of the reference's ${referenceLu.toFixed(1)} LU (less ${AIM_LU} LU when wider): no ride`,
  };
  const narrow = fromLu > referenceLu + LEVELER_SLACK_LU;
  // Widened to the reference's range less the aim's margin, never past what the limiter's input had.
  const widenTo = Math.min(referenceLu - AIM_LU, inputLu);
  const widen = !narrow && fromLu < referenceLu - LEVELER_SLACK_LU;
  if (!Number.isFinite(referenceLu) || (!narrow && !widen)) return { result: await unridden(), leveler: decision };
  if (widen && !(widenTo > fromLu + LEVELER_SLACK_LU)) {
    // The limiter took no more than the slack, or what it took would bring the master within it of the reference.
    if (inputLu <= fromLu + LEVELER_SLACK_LU)
      decision.reason =
        `loudness range ${fromLu.toFixed(1)} LU against the reference's ${referenceLu.toFixed(1)} LU, as wide as ` +
        `the limiter's input (${inputLu.toFixed(1)} LU): no ride (a range the piece does not have is not made up)`;
    return { result: await unridden(), leveler: decision };
  }
  const shape = rideShape(steps, hop);
  if (!shape) {
    decision.reason = 'too short or too quiet for a loudness range: no ride';
    return { result: await unridden(), leveler: decision };
  }
  const goal = narrow ? referenceLu + AIM_LU : widenTo;
  const [lowest, highest] = narrow ? [0, MAX_DEPTH] : [-MAX_WIDEN, 0];
  // The range a depth is expected to give. Narrowing: the ridden limiter input's, the limiter's further narrowing
  // left to the correction. Widening: the master's, through the limiter as the first pass showed it (it pins the
  // quiet passages the ride lowers, and makes up the loudness they lose).
  const predict = narrow
    ? (depth: number) => rangeOfSteps(ridden(steps, gainsDb(shape, depth)), hop)
    : widenedRange(steps, first.steps, hop, shape, baseLufs);
  // (range asked, range of the master) per kept pass; the first: no ride.
  const passes: Array<[number, number]> = [[narrow ? inputLu : predict(0), fromLu]];
  let kept = { depth: 0, aim: passes[0]![0] };
  let aim = narrow ? goal + (inputLu - fromLu) : goal;
  // The ride of the master `pcm` holds (null: none rendered yet) and the stage's result for it.
  let holds: number | null = null;
  let result: R | null = null;
  const ride = new Float32Array(n);
  const render = async (depth: number, pass: number, of: number) => {
    const gains = gainsDb(shape, depth);
    if (depth !== 0) rideCurve(ride, gains, hop);
    // The unridden master straight after the probe is the probe's pass.
    if (depth !== 0 || holds !== null) decision.limiterPasses += 1;
    const after = await stage.limit(depth === 0 ? null : ride, (f) => tick(0.3 + ((pass + f) / of) * 0.7));
    result = after.result;
    holds = depth;
    let maxBoostDb = 0;
    let maxCutDb = 0;
    for (const g of gains) {
      if (g > maxBoostDb) maxBoostDb = g;
      if (-g > maxCutDb) maxCutDb = -g;
    }
    const toLu = rangeOfSteps(after.steps, after.hop);
    Object.assign(decision, { applied: depth !== 0, toLu, depth, maxBoostDb, maxCutDb });
    return { toLu, lufs: loudnessOfSteps(after.steps, after.hop), result: after.result };
  };
  for (let pass = 0; pass < PASSES; pass++) {
    const depth = depthFor(predict, aim, lowest, highest);
    if (depth === holds) break;
    const { toLu, lufs } = await render(depth, pass, PASSES);
    // A widening that costs the loudness, or narrows after all, is not kept: the next pass asks for less.
    if (widen && (lufs < baseLufs - LOUDNESS_SLACK_LU || toLu < fromLu)) {
      aim = (aim + kept.aim) / 2;
      continue;
    }
    kept = { depth, aim };
    passes.push([aim, toLu]);
    if (Math.abs(toLu - goal) <= TOLERANCE_LU || depth === lowest || depth === highest) break;
    // The secant through the last two passes: how the master's range follows the range asked.
    const [[a0, m0], [a1, m1]] = passes.slice(-2) as [[number, number], [number, number]];
    const slope = Math.abs(a1 - a0) > 1e-6 && Math.abs(m1 - m0) > 1e-6 ? (m1 - m0) / (a1 - a0) : 1;
    aim = a1 + (goal - m1) / Math.max(0.2, slope);
  }
  // The last pass was not kept: the kept one rendered again (the chain's own master when no widening was kept).
  const master =
    holds === kept.depth && result !== null ? result : (await render(kept.depth, PASSES, PASSES + 1)).result;
  if (decision.depth === 0) {
    decision.reason =
      `loudness range ${fromLu.toFixed(1)} LU against the reference's ${referenceLu.toFixed(1)} LU: every ride ` +
      `tried lowered the loudness or the range, none kept (${decision.limiterPasses} limiter passes)`;
    return { result: master, leveler: decision };
  }
  decision.reason = narrow
    ? `loudness range ${fromLu.toFixed(1)} LU against the reference's ${referenceLu.toFixed(1)} LU: passages ridden ` +
      `${Math.round(decision.depth * 100)} % of the way to the middle level before the limiter (up to ` +
      `+${decision.maxBoostDb.toFixed(1)} / -${decision.maxCutDb.toFixed(1)} dB), ${decision.toLu.toFixed(1)} LU after, ` +
      `in ${decision.limiterPasses} limiter passes`
    : `loudness range ${fromLu.toFixed(1)} LU against the reference's ${referenceLu.toFixed(1)} LU (the limiter's ` +
      `input ${inputLu.toFixed(1)} LU): quiet passages lowered ${Math.round(-decision.depth * 100)} % of their ` +
      `distance below the middle level before the limiter (up to -${decision.maxCutDb.toFixed(1)} dB), ` +
      `${decision.toLu.toFixed(1)} LU after, in ${decision.limiterPasses} limiter passes`;
  return { result: master, leveler: decision };
}

/**
 * The depth within [lowest, highest] whose predicted range is `aim` (the bound nearest it when none is), by
 * bisection: the range falls as the depth grows. Widening has a turn: lowered far enough, the quietest passages fall
 * under the range's relative gate and stop counting, and the range shrinks again; so the search keeps to the depths
 * before the widest range (sampled in `WIDEN_SAMPLES` steps).
 */
function depthFor(rangeAt: (depth: number) => number, aim: number, lowest: number, highest: number): number {
  let low = lowest;
  if (lowest < 0) {
    let widest = rangeAt(highest);
    low = highest;
    for (let k = 1; k <= WIDEN_SAMPLES; k++) {
      const depth = highest + ((lowest - highest) * k) / WIDEN_SAMPLES;
      const range = rangeAt(depth);
      if (range <= widest) break;
      widest = range;
      low = depth;
    }
  }
  let high = highest;
  if (rangeAt(high) >= aim) return high;
  if (rangeAt(low) <= aim) return low;
  for (let i = 0; i < 14; i++) {
    const mid = (low + high) / 2;
    if (rangeAt(mid) > aim) low = mid;
    else high = mid;
  }
  return high;
}

/**
 * The master's range a widening ride of `depth` is expected to give, from the first pass: each 100 ms step's level
 * out of the limiter against its level in (`input`, at the target's scale; `output`, the master), averaged in 1 dB
 * bins of the input level, is the limiter's curve. A ridden step moves along it, with the gain that gives the master
 * back the first pass's loudness (`lufs`), found by bisection.
 */
function widenedRange(
  input: Float64Array,
  output: Float64Array,
  hop: number,
  shape: RideShape,
  lufs: number,
): (depth: number) => number {
  const curve = limiterCurve(input, output);
  const levels = Array.from(input, (e) => (e > 0 ? 10 * Math.log10(e) : -Infinity));
  const at = new Float64Array(input.length);
  return (depth) => {
    const gains = gainsDb(shape, depth);
    const through = (extraDb: number): Float64Array => {
      for (let i = 0; i < at.length; i++) {
        const level = levels[i]! + gains[i]! + extraDb;
        at[i] = Number.isFinite(level) ? Math.pow(10, (level + curve(level)) / 10) : 0;
      }
      return at;
    };
    let low = -MAX_GAIN_DB;
    let high = MAX_GAIN_DB + 6;
    for (let i = 0; i < 20; i++) {
      const mid = (low + high) / 2;
      if (loudnessOfSteps(through(mid), hop) < lufs) low = mid;
      else high = mid;
    }
    return rangeOfSteps(through(high), hop);
  };
}

/** The level change (dB) of a step through the limiter by its input level (dB), from two passes' steps. */
function limiterCurve(input: Float64Array, output: Float64Array): (levelDb: number) => number {
  const sums = new Map<number, { sum: number; count: number }>();
  for (let i = 0; i < input.length; i++) {
    if (!(input[i]! > 0 && output[i]! > 0)) continue;
    const level = 10 * Math.log10(input[i]!);
    const bin = Math.round(level);
    const entry = sums.get(bin) ?? { sum: 0, count: 0 };
    entry.sum += 10 * Math.log10(output[i]!) - level;
    entry.count += 1;
    sums.set(bin, entry);
  }
  const bins = [...sums.keys()].sort((x, y) => x - y);
  const change = bins.map((bin) => sums.get(bin)!.sum / sums.get(bin)!.count);
  if (bins.length === 0) return () => 0;
  return (levelDb) => {
    if (levelDb <= bins[0]!) return change[0]!;
    if (levelDb >= bins[bins.length - 1]!) return change[change.length - 1]!;
    let k = 1;
    while (bins[k]! < levelDb) k++;
    const t = (levelDb - bins[k - 1]!) / (bins[k]! - bins[k - 1]!);
    return change[k - 1]! + t * (change[k]! - change[k - 1]!);
  };
}

/** Per 100 ms step: its distance from the middle level (LU) and how much of a lift it may take (0 to 1). */
interface RideShape {
  distance: Float64Array;
  liftShare: Float64Array;
}

function rideShape(steps: Float64Array, hop: number): RideShape | null {
  const blocks = blockEnergies(steps, hop, SHORT_TERM_STEPS);
  // The blocks the loudness range counts (its own gating), and its middle one.
  const gating = rangeGating(blocks);
  if (!gating) return null;
  const levels = Array.from(blocks, energyToLufs);
  const gate = energyToLufs(gating.relativeGate);
  const middle = energyToLufs(gating.gated[Math.floor(gating.gated.length / 2)]!);
  const n = steps.length;
  const distance = new Float64Array(n);
  const liftShare = new Float64Array(n);
  const half = SHORT_TERM_STEPS / 2;
  for (let i = 0; i < n; i++) {
    // The 3 s block centred on the step (clamped at the ends).
    const level = levels[Math.min(blocks.length - 1, Math.max(0, i - half))]!;
    distance[i] = Math.max(level, gate) - middle;
    // Fades and silence: the lift fades out over 10 LU below the gate.
    liftShare[i] = level >= gate ? 1 : Math.max(0, 1 - (gate - level) / 10);
  }
  return { distance, liftShare };
}

/** The ride's gain per step, dB, at `depth`: smoothed forward and backward, within +-MAX_GAIN_DB. */
function gainsDb({ distance, liftShare }: RideShape, depth: number): Float64Array {
  const n = distance.length;
  const g = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = -depth * distance[i]!;
    // Widening (a negative depth) only lowers, the quiet passages; either way fades and silence are left as they are.
    if (depth < 0) v = Math.min(0, v) * liftShare[i]!;
    else if (v > 0) v *= liftShare[i]!;
    g[i] = Math.max(-MAX_GAIN_DB, Math.min(MAX_GAIN_DB, v));
  }
  const a = Math.exp(-1 / (SMOOTH_SEC * 10));
  let y = g[0] ?? 0;
  for (let i = 0; i < n; i++) g[i] = y = a * y + (1 - a) * g[i]!;
  y = g[n - 1] ?? 0;
  for (let i = n - 1; i >= 0; i--) g[i] = y = a * y + (1 - a) * g[i]!;
  return g;
}

/** The steps' energies with the ride's gains (dB per step) applied: each step's energy times its gain squared. */
function ridden(steps: Float64Array, gains: Float64Array): Float64Array {
  const out = new Float64Array(steps.length);
  for (let i = 0; i < steps.length; i++) out[i] = steps[i]! * Math.pow(10, gains[i]! / 10);
  return out;
}

/** Fills `ride` with the ride's gain per sample: it ramps linearly across each 100 ms step to that step's value. */
function rideCurve(ride: Float32Array, gainsDbPerStep: Float64Array, hop: number): void {
  const n = ride.length;
  ride.fill(1);
  let prev = Math.pow(10, (gainsDbPerStep[0] ?? 0) / 20);
  for (let s = 0; s * hop < n; s++) {
    const g = Math.pow(10, (gainsDbPerStep[Math.min(s, gainsDbPerStep.length - 1)] ?? 0) / 20);
    const i0 = s * hop;
    const i1 = Math.min(n, i0 + hop);
    applyRamp(ride, i0, i1, prev, (g - prev) / Math.max(1, i1 - i0));
    prev = g;
  }
}
