/**
 * Worker-thread entry: runs one job (from workerData) inline and reports progress, resources (child processes and
 * temporary files, so the parent can clean up if it has to terminate the thread), and the result or the error.
 * A `{ type: 'cancel' }` message aborts the job cooperatively.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toEngineError } from '../errors';
import type { JobRequest } from '../types';
import { runJobInline } from './run-inline';
import type { WorkerMessage } from './run-worker';

const port = parentPort;
if (port) {
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
    onProgress: (event) => post({ type: 'progress', event }),
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
