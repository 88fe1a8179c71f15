/**
 * The uploader's entry: `compressForUpload(file)` gives the file to send, a FLAC of a WAV when that pays, else the
 * file itself, compressed in a Web Worker so the page stays responsive. The server decodes the FLAC back to the
 * very samples of the WAV; the name keeps the WAV's stem with a .flac extension (`originalName` is the WAV's).
 */
import type { CompressProgress, SkipReason } from './compress';
import type { FlacWorkerMessage, FlacWorkerRequest } from './flac.worker';

export interface CompressForUploadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: CompressProgress) => void;
  /** The uplink speed measured so far, if any (bytes per second): weighs the encoding time against the saving. */
  uplinkBytesPerSecond?: number;
  /** Files under this are not compressed (default 1 MB). */
  minBytes?: number;
  /** Starts the worker (tests pass their own). */
  createWorker?: () => Worker;
}

export interface CompressForUploadResult {
  /** The .flac, or the original file. */
  file: File;
  compressed: boolean;
  /** The sent size over the original size (1 when not compressed). */
  ratio: number;
  /** The original file's name, to show and to name the track with. */
  originalName: string;
  /** Why the original is sent: absent when compressed; 'unavailable' where Web Workers are missing or failed. */
  reason?: SkipReason | 'unavailable';
}

const MB = 1024 * 1024;

function flacName(name: string): string {
  const stem = name.replace(/\.(wav|wave)$/i, '');
  return `${stem}.flac`;
}

function defaultWorker(): Worker {
  return new Worker(new URL('./flac.worker.ts', import.meta.url), { type: 'module', name: 'flac' });
}

/**
 * Compresses a WAV to FLAC when it pays; resolves with the original file otherwise (and when the worker cannot run:
 * compression is an optimisation, never a reason for an upload to fail). Rejects only when `signal` aborts.
 */
export function compressForUpload(
  file: File,
  options: CompressForUploadOptions = {},
): Promise<CompressForUploadResult> {
  const { signal, onProgress } = options;
  const original = (reason: CompressForUploadResult['reason']): CompressForUploadResult => ({
    file,
    compressed: false,
    ratio: 1,
    originalName: file.name,
    reason,
  });
  if (signal?.aborted) return Promise.reject(signal.reason);
  const minBytes = options.minBytes ?? MB;
  if (file.size < minBytes) return Promise.resolve(original('small'));
  if (/\.(mp3|mp4|m4v|mov|mpe?g|m4a|aac|ogg|opus|flac)$/i.test(file.name)) {
    return Promise.resolve(original('not-wav'));
  }
  let worker: Worker;
  try {
    worker = (options.createWorker ?? defaultWorker)();
  } catch {
    return Promise.resolve(original('unavailable'));
  }
  return new Promise<CompressForUploadResult>((resolve, reject) => {
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<FlacWorkerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') {
        const { readBytes, totalBytes, flacBytes } = message;
        onProgress?.({ readBytes, totalBytes, flacBytes });
        return;
      }
      finish();
      if (message.type === 'error') {
        resolve(original('unavailable'));
        return;
      }
      const { result } = message;
      if (!result.compressed) {
        resolve(original(result.reason));
        return;
      }
      resolve({
        file: new File([result.blob], flacName(file.name), { type: 'audio/flac', lastModified: file.lastModified }),
        compressed: true,
        ratio: result.blob.size / file.size,
        originalName: file.name,
      });
    };
    worker.onerror = () => {
      finish();
      resolve(original('unavailable'));
    };
    const request: FlacWorkerRequest = {
      file,
      options: { minBytes, uplinkBytesPerSecond: options.uplinkBytesPerSecond },
    };
    worker.postMessage(request);
  });
}
