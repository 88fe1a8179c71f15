/**
 * The broadband feed-forward compressor the track compressor of the mixer and the podcast compressor share: a
 * stereo-linked RMS detector read at a 1 ms control rate, a soft-knee static curve, gain reduction smoothed with
 * separate attack and release time constants, and the gain interpolated linearly per sample. Each caller places
 * its own threshold from the levels (its own statistics of the programme).
 */
import { onePole } from '../dsp/envelope';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';
import { staticGainDb } from './dynamics';

export interface ControlLevels {
  /** Detector level per control step, dB. */
  levels: Float32Array;
  /** Samples per control step (1 ms). */
  ctrl: number;
}

/**
 * Control-rate levels of the mean square across channels, smoothed by a one-pole of `detectorSec`: dB re full scale,
 * or re a full-scale sine (+3 dB) with `sineReferenced`, so a -10 dBFS-peak sine reads -10.
 */
export function controlLevels(pcm: Pcm, detectorSec: number, sineReferenced = false): ControlLevels {
  const n = frameCount(pcm);
  const chs = pcm.channels;
  const ctrl = Math.max(1, Math.round(pcm.sampleRate / 1000));
  const steps = Math.ceil(n / ctrl);
  const levels = new Float32Array(steps);
  const a = onePole(detectorSec, pcm.sampleRate);
  const scale = sineReferenced ? 2 : 1;
  let p = 0;
  for (let st = 0; st < steps; st++) {
    const e = Math.min(n, (st + 1) * ctrl);
    for (let i = st * ctrl; i < e; i++) {
      let sq = 0;
      for (const ch of chs) sq += ch[i]! * ch[i]!;
      p = a * p + ((1 - a) * sq) / chs.length;
    }
    levels[st] = 10 * Math.log10(scale * p + 1e-20);
  }
  return { levels, ctrl };
}

export interface GainRide {
  thresholdDb: number;
  ratio: number;
  kneeDb: number;
  attackSec: number;
  releaseSec: number;
  /** Steps above this level count in the reported mean reduction (the active passages). */
  activeAboveDb: number;
}

/** Compresses `pcm` in place along its control levels; the mean reduction over active steps and the largest, dB. */
export async function rideGain(
  pcm: Pcm,
  { levels, ctrl }: ControlLevels,
  ride: GainRide,
  tick?: Tick,
): Promise<{ meanReductionDb: number; maxReductionDb: number }> {
  const n = frameCount(pcm);
  const chs = pcm.channels;
  const steps = levels.length;
  const att = onePole(ride.attackSec, pcm.sampleRate / ctrl);
  const rel = onePole(ride.releaseSec, pcm.sampleRate / ctrl);
  let gr = 0;
  let prev = 1;
  let sum = 0;
  let count = 0;
  let max = 0;
  for (let st = 0; st < steps; st++) {
    const target = staticGainDb(levels[st]!, ride.thresholdDb, ride.ratio, ride.kneeDb);
    const coef = target < gr ? att : rel;
    gr = coef * gr + (1 - coef) * target;
    if (levels[st]! > ride.activeAboveDb) {
      sum -= gr;
      count++;
    }
    if (-gr > max) max = -gr;
    const g = Math.pow(10, gr / 20);
    const i0 = st * ctrl;
    const i1 = Math.min(n, i0 + ctrl);
    const step = (g - prev) / (i1 - i0);
    for (const ch of chs) for (let i = i0, gi = prev + step; i < i1; i++, gi += step) ch[i] = ch[i]! * gi;
    prev = g;
    if (tick && (st & 8191) === 8191) await tick(st / steps);
  }
  return { meanReductionDb: count ? sum / count : 0, maxReductionDb: max };
}
