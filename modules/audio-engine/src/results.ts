/** What a job returns, by kind (each stage's result type lives beside its report). */
import type { AnalysisReport } from './analysis/analyze';
import type { EnhanceResult } from './enhance/report';
import type { ProbeResult } from './io/probe';
import type { MasterResult } from './master/report';
import type { MixResult } from './mix/report';
import type { StemsResult } from './stems/report';
import type { StageTimings } from './types';

export type { EnhanceOutputs, EnhanceResult } from './enhance/report';
export type { MasterOutputs, MasterResult } from './master/report';
export type { MixOutputs, MixResult } from './mix/report';
export type { StemsOutputs, StemsResult } from './stems/report';

export interface AnalyzeResult {
  kind: 'analyze';
  probe: ProbeResult;
  report: AnalysisReport;
  timings: StageTimings;
}

export type JobResult = AnalyzeResult | MasterResult | EnhanceResult | StemsResult | MixResult;
