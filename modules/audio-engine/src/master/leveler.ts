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
 * (`limitToRange`): the chain is limited as it is and the master's range measured; only when it is wider than the
 * reference's by more than `LEVELER_SLACK_LU` is the limiter's input ridden and limited again, aiming the ride so
 * that the master lands on the reference's range (at most `PASSES` rides, the aim corrected by the secant through
 * the passes so far). A master already within the slack costs one measurement; it never widens a range.
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
   * The master's loudness range as the chain made it (when no ride can be needed, its limiter input's, read at the
   * target loudness: the limiter only narrows it), the reference's, and the master's after the ride, LU.
   */
  fromLu: number;
  referenceLu: number;
  toLu: number;
  /** The share of each passage's distance from the middle level taken away (0 to `MAX_DEPTH`). */
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
/** The ride's gain stays within +-this, dB. */
const MAX_GAIN_DB = 9;
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
  const lufs = integratedLoudness(blockEnergies(steps, acc.hop, 4)).lufs;
  if (atLufs === undefined || !Number.isFinite(lufs)) return { steps, hop: acc.hop };
  const scale = Math.pow(10, (atLufs - lufs) / 10);
  return { steps: steps.map((e) => e * scale), hop: acc.hop };
}

const rangeOfSteps = (steps: Float64Array, hop: number): number =>
  loudnessRange(blockEnergies(steps, hop, SHORT_TERM_STEPS));

/**
 * Limits `pcm` in place with `limit` (the loudness stage, to `targetLufs`), then, when the master's range is wider than
 * `referenceLu` by more than the slack, rides the limiter's input toward it and limits again (see the file's
 * comment). Answers the last pass's result and what the ride did.
 */
export async function limitToRange<R>(
  pcm: Pcm,
  referenceLu: number,
  targetLufs: number,
  limit: (pcm: Pcm, tick: Tick) => Promise<R>,
  tick: Tick,
): Promise<{ result: R; leveler: RangeLevelerDecision }> {
  // The limiter only narrows a range: a limiter input already within the slack needs no ride, nor a copy.
  const { steps, hop } = stepsOf(pcm, targetLufs);
  const inputLu = rangeOfSteps(steps, hop);
  const rideable = Number.isFinite(referenceLu) && inputLu > referenceLu + LEVELER_SLACK_LU;
  const input = rideable ? pcm.channels.map((ch) => Float32Array.from(ch)) : null;
  let result = await limit(pcm, (f) => tick(f * 0.6));
  // Not rideable: the master's range is at most the input's, already within the slack (no second measurement).
  const fromLu = input ? rangeOfSteps(stepsOf(pcm).steps, hop) : inputLu;
  const decision: RangeLevelerDecision = {
    applied: false,
    fromLu,
    referenceLu,
    toLu: fromLu,
    depth: 0,
    maxBoostDb: 0,
    maxCutDb: 0,
    limiterPasses: 1,
    reason: `loudness range ${fromLu.toFixed(1)} LU, within ${LEVELER_SLACK_LU} LU of the reference's ${referenceLu.toFixed(1)} LU (or below it): no ride`,
  };
  if (!input || !(fromLu > referenceLu + LEVELER_SLACK_LU)) return { result, leveler: decision };
  const shape = rideShape(steps, hop);
  if (!shape)
    return { result, leveler: { ...decision, reason: 'too short or too quiet for a loudness range: no ride' } };
  const goal = referenceLu + AIM_LU;
  // (range asked of the ride, range of the master) per pass; the first: no ride.
  const passes: Array<[number, number]> = [[inputLu, fromLu]];
  let aim = goal + (inputLu - fromLu);
  for (let pass = 0; pass < PASSES; pass++) {
    const depth = depthFor(steps, hop, shape, aim);
    const gains = gainsDb(shape, depth);
    pcm.channels.forEach((ch, c) => ch.set(input[c]!));
    applyRide(pcm, gains, hop);
    result = await limit(pcm, (f) => tick(0.6 + ((pass + f) / PASSES) * 0.4));
    const after = stepsOf(pcm);
    const toLu = rangeOfSteps(after.steps, after.hop);
    let maxBoostDb = 0;
    let maxCutDb = 0;
    for (const g of gains) {
      if (g > maxBoostDb) maxBoostDb = g;
      if (-g > maxCutDb) maxCutDb = -g;
    }
    Object.assign(decision, { applied: true, toLu, depth, maxBoostDb, maxCutDb, limiterPasses: pass + 2 });
    passes.push([aim, toLu]);
    if (Math.abs(toLu - goal) <= TOLERANCE_LU || depth >= MAX_DEPTH) break;
    // The secant through the last two passes: how the master's range follows the range asked of the ride.
    const [[a0, m0], [a1, m1]] = passes.slice(-2) as [[number, number], [number, number]];
    const slope = Math.abs(a1 - a0) > 1e-6 && Math.abs(m1 - m0) > 1e-6 ? (m1 - m0) / (a1 - a0) : 1;
    aim = a1 + (goal - m1) / Math.max(0.2, slope);
  }
  decision.reason =
    `loudness range ${fromLu.toFixed(1)} LU against the reference's ${referenceLu.toFixed(1)} LU: passages ridden ` +
    `${Math.round(decision.depth * 100)} % of the way to the middle level before the limiter (up to ` +
    `+${decision.maxBoostDb.toFixed(1)} / -${decision.maxCutDb.toFixed(1)} dB), ${decision.toLu.toFixed(1)} LU after, ` +
    `in ${decision.limiterPasses} limiter passes`;
  return { result, leveler: decision };
}

/** The depth whose ride gives the steps a range of `aim` (the most allowed when even that is wider), by bisection. */
function depthFor(steps: Float64Array, hop: number, shape: RideShape, aim: number): number {
  const rangeAt = (depth: number): number => rangeOfSteps(ridden(steps, gainsDb(shape, depth)), hop);
  if (rangeAt(MAX_DEPTH) >= aim) return MAX_DEPTH;
  if (rangeAt(0) <= aim) return 0;
  let low = 0;
  let high = MAX_DEPTH;
  for (let i = 0; i < 14; i++) {
    const mid = (low + high) / 2;
    if (rangeAt(mid) > aim) low = mid;
    else high = mid;
  }
  return high;
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
    if (v > 0) v *= liftShare[i]!;
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

/** Multiplies every channel by the ride: the gain ramps linearly across each 100 ms step to that step's value. */
function applyRide(pcm: Pcm, gainsDbPerStep: Float64Array, hop: number): void {
  const n = frameCount(pcm);
  let prev = Math.pow(10, (gainsDbPerStep[0] ?? 0) / 20);
  for (let s = 0; s * hop < n; s++) {
    const g = Math.pow(10, (gainsDbPerStep[Math.min(s, gainsDbPerStep.length - 1)] ?? 0) / 20);
    const i0 = s * hop;
    const i1 = Math.min(n, i0 + hop);
    const step = (g - prev) / Math.max(1, i1 - i0);
    for (const ch of pcm.channels) applyRamp(ch, i0, i1, prev, step);
    prev = g;
  }
}
