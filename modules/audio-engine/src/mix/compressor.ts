/**
 * Track compressor: feed-forward, stereo-linked, RMS detector (window = the attack time, at least 5 ms), soft knee
 * (6 dB), gain smoothed with separate attack and release time constants at a 1 ms control rate and interpolated
 * per sample. The threshold comes from the track itself: it is placed so that the loud passages (the 90th percentile
 * of the active detector levels) are reduced by about `depthDb`.
 */
import { percentile } from '../dsp/envelope';
import type { Tick } from '../job/context';
import { type Pcm, frameCount } from '../pcm';
import { staticGainDb } from '../master/dynamics';

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
  const fs = pcm.sampleRate;
  const n = frameCount(pcm);
  const chs = pcm.channels;
  const ctrl = Math.max(1, Math.round(fs / 1000));
  const steps = Math.ceil(n / ctrl);
  const levels = new Float32Array(steps);
  const a = Math.exp(-1 / (Math.max(0.005, s.attackMs / 1000) * fs));
  let p = 0;
  for (let st = 0; st < steps; st++) {
    const e = Math.min(n, (st + 1) * ctrl);
    for (let i = st * ctrl; i < e; i++) {
      let sq = 0;
      for (const ch of chs) sq += ch[i]! * ch[i]!;
      p = a * p + ((1 - a) * sq) / chs.length;
    }
    // RMS level in dB re full-scale sine (+3 dB), so a -10 dBFS-peak sine reads -10.
    levels[st] = 10 * Math.log10(2 * p + 1e-20);
  }
  const loud = percentile(levels, 0.99);
  const active = Array.from(levels).filter((l) => l > loud - 30);
  const high = percentile(active, 0.9);
  // Above the knee, reduction = (L - T)(1 - 1/R): put T so that the 90th-percentile level is reduced by depthDb.
  const thresholdDb = Number.isFinite(high) ? high - s.depthDb / (1 - 1 / s.ratio) : 0;
  const att = Math.exp(-1 / ((s.attackMs / 1000) * (fs / ctrl)));
  const rel = Math.exp(-1 / ((s.releaseMs / 1000) * (fs / ctrl)));
  let gr = 0;
  let prev = 1;
  let sum = 0;
  let count = 0;
  let max = 0;
  for (let st = 0; st < steps; st++) {
    const target = staticGainDb(levels[st]!, thresholdDb, s.ratio, KNEE_DB);
    const coef = target < gr ? att : rel;
    gr = coef * gr + (1 - coef) * target;
    if (levels[st]! > loud - 30) {
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
    if (tick && (st & 16383) === 16383) await tick(st / steps);
  }
  const r = (v: number) => Math.round(v * 100) / 100;
  return {
    thresholdDb: r(thresholdDb),
    ratio: s.ratio,
    attackMs: s.attackMs,
    releaseMs: s.releaseMs,
    kneeDb: KNEE_DB,
    meanReductionDb: r(count ? sum / count : 0),
    maxReductionDb: r(max),
  };
}
