/**
 * The FLAC worker: compresses one file per message off the main thread and reports progress. The main thread's
 * `compressForUpload` starts one per file and terminates it when done or aborted.
 */
import { compressWav, type CompressOptions, type CompressProgress, type CompressResult } from './compress';

export interface FlacWorkerRequest {
  file: Blob;
  options: Omit<CompressOptions, 'signal' | 'onProgress' | 'now'>;
}

export type FlacWorkerMessage =
  | ({ type: 'progress' } & CompressProgress)
  | { type: 'done'; result: CompressResult }
  | { type: 'error'; message: string };

/** The worker's global scope, typed as much as used (the web project's types are the DOM's, not a worker's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<FlacWorkerRequest>) => void) | null;
  postMessage(message: FlacWorkerMessage): void;
};

scope.onmessage = (event: MessageEvent<FlacWorkerRequest>) => {
  const { file, options } = event.data;
  const post = (message: FlacWorkerMessage) => scope.postMessage(message);
  compressWav(file, { ...options, onProgress: (progress) => post({ type: 'progress', ...progress }) }).then(
    (result) => post({ type: 'done', result }),
    (error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
};
