/**
 * Worker-thread entry: runs one job (from workerData) inline and reports progress, resources (child processes and
 * temporary files, so the parent can clean up if it has to terminate the thread), and the result or the error.
 * A `{ type: 'cancel' }` message aborts the job cooperatively.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { toEngineError } from '../errors';
import type { JobRequest } from '../types';
import { runJobInline } from './run-inline';
import type { WorkerMessage } from './run-worker';

/**
 * Lowers this thread's scheduling priority by `niceness` (its tools, started from this thread, inherit it). On Linux
 * a thread id is a valid target of setpriority(2), and /proc/thread-self names the calling thread (a synchronous
 * call runs on this very thread). Elsewhere, or when refused, the job runs at its process's priority.
 */
function lowerPriority(niceness: number): void {
  if (!(niceness > 0)) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return;
    setPriority(tid, Math.min(19, getPriority(tid) + Math.round(niceness)));
  } catch {
    // not Linux: the process's priority
  }
}

/** This thread's CPU time, ms; undefined where the runtime cannot tell (Node before 23.9). */
function threadCpuMs(): number | undefined {
  if (typeof process.threadCpuUsage !== 'function') return undefined;
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

const port = parentPort;
if (port) {
  lowerPriority((workerData as { niceness?: number }).niceness ?? 0);
  const controller = new AbortController();
  const post = (message: WorkerMessage) => port.postMessage(message);
  port.on('message', (message: unknown) => {
    if (message && typeof message === 'object' && (message as { type?: unknown }).type === 'cancel') {
      controller.abort();
    }
  });
  const { request } = workerData as { request: JobRequest };
  runJobInline(request, {
    signal: controller.signal,
    onProgress: (event) => post({ type: 'progress', event: { ...event, cpuMs: threadCpuMs() } }),
    onResource: (event) => post({ type: 'resource', event }),
  }).then(
    (result) => {
      post({ type: 'result', result });
      port.close();
    },
    (error: unknown) => {
      post({ type: 'error', error: toEngineError(error).toJSON() });
      port.close();
    },
  );
}
