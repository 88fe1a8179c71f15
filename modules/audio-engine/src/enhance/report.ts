/** The enhancement report (report.json and EnhanceResult.report). */
import type { ProbeResult } from '../io/probe';
import type { InputFacts } from '../stage/input';
import type { AnalysisReport } from '../analysis/analyze';
import type { GainStats } from '../master/limiter';
import type { EnhancePreset, StageTimings } from '../types';
import type { ContentClass } from './classify';
import type { DenoiseDecision } from './denoise';
import type { HumDetection } from './hum';
import type { CompressorDecision, DeEsserDecision, LevelerDecision } from './speech';

export interface EnhanceReport {
  engine: string;
  input: InputFacts;
  settings: {
    preset: EnhancePreset;
    /** The chain actually run: voice and podcast are speech chains; audio and video pick one by content. */
    chain: 'voice' | 'podcast' | 'music';
    classification: ContentClass | null;
    targetLufs: number;
    ceilingDbtp: number;
  };
  before: AnalysisReport;
  after: AnalysisReport;
  steps: {
    highpassHz: number;
    hum: HumDetection & { notches: number };
    noiseSuppression:
      | {
          method: 'rnnoise+wiener';
          frames: number;
          meanVoiceProbability: number;
          processedAsMono: boolean;
          wiener: DenoiseDecision;
        }
      | DenoiseDecision;
    deEsser: DeEsserDecision | null;
    leveler: LevelerDecision | null;
    compressor: CompressorDecision | null;
    /**
     * Speech: 'true-peak clipper' when the loudest peak needs at most 6 dB (enhance/peaks), else 'limiter' (the
     * mastering chain's look-ahead limiter, quick speech settings); music: 'limiter'.
     */
    loudness: {
      method: 'limiter' | 'true-peak clipper';
      inputGainDb: number;
      correctionDb: number;
      /** Speech: reduction the loudest peak needed at the target loudness, dB. */
      neededReductionDb?: number;
    } & GainStats;
  };
  outputs: {
    enhanced: { file: string; sampleRate: number; bitDepth: number | null; container: string; videoCopied: boolean };
  };
  timings: StageTimings;
}

export interface EnhanceOutputs {
  enhanced: string;
  report: string;
}

export interface EnhanceResult {
  kind: 'enhance';
  probe: ProbeResult;
  outputs: EnhanceOutputs;
  report: EnhanceReport;
  durationSec: number;
  timings: StageTimings;
}
