/**
 * Runs a job in a worker thread so that the calling thread (the server's event loop) never blocks on DSP.
 *
 * The worker entry is the compiled `dist/job/worker.js` of this package (worker threads cannot load TypeScript):
 * from `dist/job` it sits next to this file, from `src/job` (tests, development) it is found in `../../dist/job`.
 * `KORA_ENGINE_WORKER` overrides the path. Build with `node scripts/build-server.mjs`.
 *
 * Cancellation: on abort the worker is asked to stop (it checks between chunks of ~40 ms of work, kills its ffmpeg
 * children and deletes its temporary files); if it has not finished within 800 ms it is terminated, and this side
 * kills the child processes and deletes the temporary files the worker reported. Either way the promise rejects
 * with CancelledError (ENGINE.CANCELLED) within a second.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  CancelledError,
  type EngineErrorJSON,
  ToolMissingError,
  WorkerFailedError,
  engineErrorFromJSON,
} from '../errors';
import type { JobResult } from '../results';
import type { JobProgress, JobRequest, RunOptions } from '../types';
import type { ResourceEvent } from '../stage/context';
import { validateRequest } from './run-inline';

export type WorkerMessage =
  | { type: 'progress'; event: JobProgress }
  | { type: 'resource'; event: ResourceEvent }
  | { type: 'result'; result: JobResult }
  | { type: 'error'; error: EngineErrorJSON };

const HARD_STOP_MS = 800;

export function workerEntryPath(): string {
  const override = process.env.KORA_ENGINE_WORKER;
  if (override) return override;
  const candidates = [join(__dirname, 'worker.js'), join(__dirname, '..', '..', 'dist', 'job', 'worker.js')];
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new ToolMissingError(
      'the engine worker (dist/job/worker.js)',
      'build it with `node scripts/build-server.mjs`',
    );
  }
  return found;
}

export interface WorkerRunOptions extends RunOptions {
  /** Path of the worker entry (default: workerEntryPath()). */
  workerPath?: string;
  /**
   * How much lower than its process the job's thread (and the tools it starts) is scheduled, as nice values (0-19;
   * default 0): a server gives its requests the CPU first. Linux only; elsewhere the job runs at its process's
   * priority.
   */
  niceness?: number;
}

/** How often the caller repeats "started" while the worker thread is still loading, ms (the job's own heartbeat's). */
const STARTING_HEARTBEAT_MS = 250;

/** Runs `request` in a new worker thread; resolves with the result or rejects with an EngineError. */
export function runJob(request: JobRequest, options: WorkerRunOptions = {}): Promise<JobResult> {
  return new Promise<JobResult>((resolvePromise, rejectPromise) => {
    let job: JobRequest;
    let path: string;
    try {
      job = validateRequest(request);
      path = options.workerPath ?? workerEntryPath();
    } catch (error) {
      rejectPromise(error);
      return;
    }
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      rejectPromise(new CancelledError());
      return;
    }
    const worker = new Worker(path, { workerData: { request: job, niceness: options.niceness ?? 0 } });
    // A new thread loads the engine before it can say anything (about 130 ms here, over a second on a loaded
    // machine): until it does, the caller hears from here that the job has started.
    let heardFromWorker = false;
    const starting = onProgress
      ? setInterval(() => {
          if (!heardFromWorker) onProgress({ progress: 0, stage: 'start' });
        }, STARTING_HEARTBEAT_MS)
      : undefined;
    starting?.unref();
    onProgress?.({ progress: 0, stage: 'start' });
    const children = new Set<number>();
    const temps = new Set<string>();
    let settled = false;
    let hardStop: NodeJS.Timeout | undefined;
    const cleanupResources = async () => {
      for (const pid of children) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await Promise.all([...temps].map((t) => rm(t, { force: true })));
    };
    const settle = (outcome: { result: JobResult } | { error: Error }) => {
      if (settled) return;
      settled = true;
      if (hardStop) clearTimeout(hardStop);
      if (starting) clearInterval(starting);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if ('result' in outcome) resolvePromise(outcome.result);
      else rejectPromise(outcome.error);
    };
    const onAbort = () => {
      worker.postMessage({ type: 'cancel' });
      hardStop = setTimeout(() => {
        void worker
          .terminate()
          .then(cleanupResources, cleanupResources)
          .then(() => settle({ error: new CancelledError() }));
      }, HARD_STOP_MS);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'progress':
          heardFromWorker = true;
          if (starting) clearInterval(starting);
          onProgress?.(message.event);
          break;
        case 'resource': {
          const e = message.event;
          if (e.type === 'child') {
            if (e.alive) children.add(e.pid);
            else children.delete(e.pid);
          } else if (e.alive) temps.add(e.path);
          else temps.delete(e.path);
          break;
        }
        case 'result':
          settle({ result: message.result });
          break;
        case 'error':
          settle({ error: engineErrorFromJSON(message.error) });
          break;
      }
    });
    worker.on('error', (error) => {
      void cleanupResources().then(() => settle({ error: new WorkerFailedError(error.message) }));
    });
    worker.on('exit', (code) => {
      if (!settled) {
        void cleanupResources().then(() =>
          settle({ error: signal?.aborted ? new CancelledError() : new WorkerFailedError(`exited with code ${code}`) }),
        );
      }
    });
  });
}
