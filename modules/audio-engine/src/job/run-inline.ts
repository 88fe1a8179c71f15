/**
 * Runs a job in the calling thread (the worker entry and the CLI use this; a server should use `runJob`, which runs
 * it in a worker thread). Validates the request once, then dispatches to the analysis, mastering, enhancement, stem
 * separation or mixing pipeline. Every failure surfaces as an EngineError with a code.
 */
import { analyzePcm } from '../analysis/analyze';
import { enhance } from '../enhance/enhance';
import { InvalidOptionsError, toEngineError } from '../errors';
import { runMaster } from '../master/master';
import { runMix } from '../mix/mix';
import { validateMixRequest } from '../mix/request';
import { runStems } from '../stems/stems';
import type { JobResult } from '../results';
import { ENHANCE_PRESETS, JOB_KINDS, STEM_MODES, type JobRequest, type RunOptions } from '../types';
import { StageContext, type ResourceEvent } from '../stage/context';
import { assertOneOf, loadInput } from '../stage/input';

/** Checks the shape of a request coming from outside the type system (HTTP, CLI, another thread). */
export function validateRequest(request: unknown): JobRequest {
  if (!request || typeof request !== 'object') throw new InvalidOptionsError('the job request must be an object');
  const r = request as Record<string, unknown>;
  const kind = assertOneOf(r.kind, JOB_KINDS, 'kind');
  if (kind === 'mix') {
    validateMixRequest(r);
    return request as JobRequest;
  }
  if (typeof r.input !== 'string' || r.input === '') throw new InvalidOptionsError('input must be a file path');
  if (r.claimedType !== undefined && typeof r.claimedType !== 'string') {
    throw new InvalidOptionsError('claimedType must be a string');
  }
  if (kind !== 'analyze' && (typeof r.outDir !== 'string' || r.outDir === '')) {
    throw new InvalidOptionsError('outDir must be a directory path');
  }
  if (r.options !== undefined && (typeof r.options !== 'object' || r.options === null)) {
    throw new InvalidOptionsError('options must be an object');
  }
  if (kind === 'enhance') {
    const o = (r.options ?? {}) as Record<string, unknown>;
    assertOneOf(o.preset, ENHANCE_PRESETS, 'preset');
  }
  if (kind === 'stems') {
    const o = (r.options ?? {}) as Record<string, unknown>;
    assertOneOf(o.mode, STEM_MODES, 'mode');
  }
  return request as JobRequest;
}

export interface InlineRunOptions extends RunOptions {
  onResource?: (event: ResourceEvent) => void;
}

export async function runJobInline(request: JobRequest, options: InlineRunOptions = {}): Promise<JobResult> {
  const ctx = new StageContext({
    signal: options.signal,
    onProgress: options.onProgress,
    onResource: options.onResource,
  });
  try {
    const job = validateRequest(request);
    let result: JobResult;
    switch (job.kind) {
      case 'analyze': {
        ctx.plan({ decode: 3, analyze: 10 });
        const input = await ctx.stage('decode', (tick) =>
          loadInput(job.input, { claimedType: job.claimedType, sampleRate: 'native', ctx, tick }),
        );
        const report = await ctx.stage('analyze', (tick) => analyzePcm(input.pcm, { tick }));
        result = { kind: 'analyze', probe: input.probe, report, timings: ctx.timings };
        break;
      }
      case 'master':
        result = await runMaster(job, ctx);
        break;
      case 'enhance':
        result = await enhance(job, ctx);
        break;
      case 'stems':
        result = await runStems(job, ctx);
        break;
      case 'mix':
        result = await runMix(job, ctx);
        break;
      default: {
        const never: never = job;
        throw new InvalidOptionsError(`unknown job ${String(never)}`);
      }
    }
    ctx.finish();
    return result;
  } catch (error) {
    throw toEngineError(error);
  }
}
