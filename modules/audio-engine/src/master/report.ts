/** The mastering report (report.json and MasterResult.report). */
import type { ProbeResult } from '../io/probe';
import type { InputFacts } from '../stage/input';
import type { AnalysisReport } from '../analysis/analyze';
import type { Intensity, MusicalStyle, StageTimings } from '../types';
import type { DynamicsDecision } from './dynamics';
import type { GainStats } from './limiter';
import type { LoudnessLimit } from './normalize';
import type { PreviewChoice } from './preview';
import type { StereoDecision } from './stereo';
import type { EqBand, TonalDecision } from './tonal';

export interface OutputFacts {
  file: string;
  sampleRate: number;
  bitDepth: number;
  dither: 'tpdf' | 'none';
  integratedLufs: number;
  truePeakDbtp: number;
}

/**
 * Reference mastering: how close the master came to the reference. Curves are 1/3-octave band levels (the 30 bands
 * of `bandsHz`, 25 Hz-20 kHz) minus the signal's integrated loudness, dB (null: no energy in the band, or above
 * 0.45 of the rate); distances are the RMS difference of two curves over `distanceBandHz` (40 Hz-16 kHz), levels held
 * at most 60 dB under each curve's loudest band.
 */
export interface ReferenceMatchReport {
  method: 'third-octave filter bank';
  bandsHz: number[];
  referenceDb: Array<number | null>;
  inputDb: Array<number | null>;
  /** The 44.1 kHz master's curve. */
  masterDb: Array<number | null>;
  distanceBandHz: [number, number];
  /** Input to reference, dB. */
  distanceBeforeDb: number;
  /** 44.1 kHz master to reference, dB. */
  distanceAfterDb: number;
  /** distanceAfterDb <= distanceBeforeDb. */
  closer: boolean;
  /** The limits the EQ worked within (per intensity) and the no-boost rule's floor. */
  limits: { maxBoostDb: number; maxCutDb: number; amount: number; edgeShare: number; contentFloorDb: number };
  /**
   * The EQ designs: `first` from the input, `correction` from the first one's result after the dynamics, stereo
   * stage and a proxy of the limiter, measured on an excerpt (absent when it would not have brought the master
   * closer). Both are folded into one filter bank (`appliedSections`) before the audio is processed. `correctionDb` asked per band, `achievedDb`
   * the filter bank's response, `sections` the filter bank (nominal Hz, exact Hz, gain dB, Q).
   */
  passes: Array<{
    stage: 'first' | 'correction';
    correctionDb: number[];
    achievedDb: number[];
    sections: EqBand[];
    /** Bands (nominal Hz) where the reference asked for a boost of a band the input does not play: refused. */
    refusedBoostHz: number[];
    /** Bands (nominal Hz) where the correction was held to the limits. */
    cappedHz: number[];
  }>;
  /** The filter bank applied to the audio (both passes folded into one): response per band, dB, and sections. */
  appliedDb: number[];
  appliedSections: EqBand[];
  /** Distance after the first EQ, the dynamics and the proxy limiter, and predicted after the correction, dB. */
  proxyDistanceDb: number | null;
  predictedDistanceDb: number | null;
  /** The reasons, in words. */
  notes: string[];
}

export interface MasterReport {
  engine: string;
  input: InputFacts;
  settings: {
    targetLufs: number;
    targetSource: 'default' | 'preset' | 'number' | 'reference';
    intensity: Intensity;
    style: MusicalStyle;
    reference: string | null;
    ceilingDbtp: number;
  };
  before: AnalysisReport;
  after: AnalysisReport;
  reference: AnalysisReport | null;
  /**
   * The loudness asked for (the preset, the number, or the reference's own loudness) against the loudness reached by
   * the 44.1 kHz master; when it is missed by more than `toleranceLu`, `limitedBy` says why: the output is pinned
   * against the true-peak ceiling, the limiter would have to go past the push limit that protects the dynamics, or
   * the reference is louder than the -6 LUFS a target may be.
   */
  loudnessTarget: {
    requestedLufs: number;
    achievedLufs: number;
    toleranceLu: number;
    reached: boolean;
    limitedBy: LoudnessLimit | 'target-range' | null;
  };
  /** How the master's tonal balance was matched to the reference's, and how close it ended; null without a reference. */
  referenceMatch: ReferenceMatchReport | null;
  decisions: {
    tonal: TonalDecision & { target: 'style' | 'reference' };
    dynamics: DynamicsDecision;
    stereo: StereoDecision;
    limiter: {
      ceilingDbtp: number;
      lookaheadMs: number;
      holdMs: number;
      releaseMs: number;
      inputGainDb: number;
      searchIterations: number;
      correctionDb: number;
    } & GainStats;
    outputTrimDb: number;
    preview: PreviewChoice;
  };
  outputs: { master44: OutputFacts; master48: OutputFacts; preview: { file: string; format: 'mp3'; bitrate: string } };
  timings: StageTimings;
}

/** JSON with numbers rounded to 3 decimals and non-finite values (silence: -Infinity) as null. */
export function reportJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'number') return Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null;
      if (v instanceof Float64Array || v instanceof Float32Array) return Array.from(v);
      return v;
    },
    2,
  );
}

export interface MasterOutputs {
  master44: string;
  master48: string;
  preview: string;
  report: string;
}

export interface MasterResult {
  kind: 'master';
  probe: ProbeResult;
  outputs: MasterOutputs;
  report: MasterReport;
  /** Duration of the input in seconds. */
  durationSec: number;
  timings: StageTimings;
}
