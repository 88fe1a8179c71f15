/** The mastering report (report.json and MasterResult.report). */
import type { ProbeResult } from '../io/probe';
import type { InputFacts } from '../job/input';
import type { AnalysisReport } from '../analysis/analyze';
import type { Intensity, MusicalStyle, StageTimings } from '../types';
import type { DynamicsDecision } from './dynamics';
import type { GainStats } from './limiter';
import type { LoudnessLimit } from './normalize';
import type { PreviewChoice } from './preview';
import type { StereoDecision } from './stereo';
import type { TonalDecision } from './tonal';

export interface OutputFacts {
  file: string;
  sampleRate: number;
  bitDepth: number;
  dither: 'tpdf' | 'none';
  integratedLufs: number;
  truePeakDbtp: number;
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
