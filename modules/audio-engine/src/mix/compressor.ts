/**
 * Track compressor: feed-forward, stereo-linked, RMS detector (window = the attack time, at least 5 ms), soft knee
 * (6 dB), gain smoothed with separate attack and release time constants at a 1 ms control rate and interpolated
 * per sample. The threshold comes from the track itself: it is placed so that the loud passages (the 90th percentile
 * of the active detector levels) are reduced by about `depthDb`.
 */
import { percentile } from '../dsp/envelope';
import type { Tick } from '../stage/context';
import type { Pcm } from '../pcm';
import { controlLevels, rideGain } from '../master/gain-ride';

export interface CompressorSettings {
  ratio: number;
  attackMs: number;
  releaseMs: number;
  depthDb: number;
}

export interface CompressorReport {
  thresholdDb: number;
  ratio: number;
  attackMs: number;
  releaseMs: number;
  kneeDb: number;
  /** Mean gain reduction over the active passages, dB (positive). */
  meanReductionDb: number;
  maxReductionDb: number;
}

const KNEE_DB = 6;

/** Compresses `pcm` in place; returns the settings used and the gain reduction it applied. */
export async function compressTrack(pcm: Pcm, s: CompressorSettings, tick?: Tick): Promise<CompressorReport> {
  const control = controlLevels(pcm, Math.max(0.005, s.attackMs / 1000), true);
  const loud = percentile(control.levels, 0.99);
  const active = Array.from(control.levels).filter((l) => l > loud - 30);
  const high = percentile(active, 0.9);
  // Above the knee, reduction = (L - T)(1 - 1/R): put T so that the 90th-percentile level is reduced by depthDb.
  const thresholdDb = Number.isFinite(high) ? high - s.depthDb / (1 - 1 / s.ratio) : 0;
  const { meanReductionDb, maxReductionDb } = await rideGain(
    pcm,
    control,
    {
      thresholdDb,
      ratio: s.ratio,
      kneeDb: KNEE_DB,
      attackSec: s.attackMs / 1000,
      releaseSec: s.releaseMs / 1000,
      activeAboveDb: loud - 30,
    },
    tick,
  );
  const r = (v: number) => Math.round(v * 100) / 100;
  return {
    thresholdDb: r(thresholdDb),
    ratio: s.ratio,
    attackMs: s.attackMs,
    releaseMs: s.releaseMs,
    kneeDb: KNEE_DB,
    meanReductionDb: r(meanReductionDb),
    maxReductionDb: r(maxReductionDb),
  };
}
