/**
 * Public option and result types of the engine. Everything here is plain data (structured-clone safe) so it can
 * cross the worker-thread boundary unchanged.
 */
import type { AnalysisReport } from './analysis/analyze';
import type { ProbeResult } from './io/probe';

export const MUSICAL_STYLES = [
  'ROCK_INDIE',
  'POP',
  'ACOUSTIC',
  'HIPHOP_GRIME',
  'ELECTRONIC',
  'REGGAE_DUB',
  'ORCHESTRAL',
  'METAL',
  'OTHER',
] as const;
export type MusicalStyle = (typeof MUSICAL_STYLES)[number];

/** Integrated loudness targets in LUFS. */
export const LOUDNESS_PRESETS = { streaming: -14, apple: -16, podcast: -16, club: -9 } as const;
export type LoudnessPreset = keyof typeof LOUDNESS_PRESETS;
/** A preset name or an integrated loudness in LUFS (between -30 and -6). */
export type LoudnessTarget = LoudnessPreset | number;

export const INTENSITIES = ['low', 'medium', 'high'] as const;
export type Intensity = (typeof INTENSITIES)[number];

export const ENHANCE_PRESETS = ['voice', 'podcast', 'music', 'audio', 'video'] as const;
export type EnhancePreset = (typeof ENHANCE_PRESETS)[number];

export const JOB_KINDS = ['analyze', 'master', 'enhance'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The true-peak ceiling every mastered or enhanced output respects, in dBTP. */
export const TRUE_PEAK_CEILING_DBTP = -1;

export interface MasterOptions {
  /** Loudness target; default `streaming` (-14 LUFS). With a reference and no explicit target, the reference's. */
  target?: LoudnessTarget;
  /** How far the chain moves the track toward its targets; default `medium`. */
  intensity?: Intensity;
  /** Musical style, selects the tonal-balance target curve and dynamics; default `OTHER`. */
  style?: MusicalStyle;
  /** Path of a reference track whose tonal balance (and loudness, unless `target` is given) is matched. */
  reference?: string;
  /** Seed of the dither noise, for reproducible outputs; default 1. */
  seed?: number;
}

export interface EnhanceOptions {
  preset: EnhancePreset;
  /** Overrides the preset's loudness target (voice and podcast -16 LUFS, music -14 LUFS). */
  target?: LoudnessTarget;
  /** Seed of the dither noise; default 1. */
  seed?: number;
}

interface JobBase {
  /** Path of the input file. */
  input: string;
  /**
   * What the uploader claimed the file is (its original file name, extension or MIME type). When given, content
   * that is a different format fails with ENGINE.FORMAT_MISMATCH. When absent the input path's extension is used.
   */
  claimedType?: string;
}

export interface AnalyzeJob extends JobBase {
  kind: 'analyze';
}
export interface MasterJob extends JobBase {
  kind: 'master';
  outDir: string;
  options?: MasterOptions;
}
export interface EnhanceJob extends JobBase {
  kind: 'enhance';
  outDir: string;
  options: EnhanceOptions;
}
export type JobRequest = AnalyzeJob | MasterJob | EnhanceJob;

export interface JobProgress {
  /** 0 to 1, never decreasing within a job. */
  progress: number;
  /** Name of the running stage (decode, analyze, eq, dynamics, limiter, outputs, ...). */
  stage: string;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (event: JobProgress) => void;
}

/** Wall-clock seconds spent in each stage, plus `total`. */
export type StageTimings = Record<string, number>;

export interface AnalyzeResult {
  kind: 'analyze';
  probe: ProbeResult;
  report: AnalysisReport;
  timings: StageTimings;
}

export interface MasterOutputs {
  master44: string;
  master48: string;
  preview: string;
  report: string;
}

export interface EnhanceOutputs {
  enhanced: string;
  report: string;
}

export interface MasterResult {
  kind: 'master';
  probe: ProbeResult;
  outputs: MasterOutputs;
  report: import('./master/report').MasterReport;
  /** Duration of the input in seconds. */
  durationSec: number;
  timings: StageTimings;
}

export interface EnhanceResult {
  kind: 'enhance';
  probe: ProbeResult;
  outputs: EnhanceOutputs;
  report: import('./enhance/report').EnhanceReport;
  durationSec: number;
  timings: StageTimings;
}

export type JobResult = AnalyzeResult | MasterResult | EnhanceResult;
