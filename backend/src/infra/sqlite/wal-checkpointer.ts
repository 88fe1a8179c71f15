import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface CheckpointWorkerData {
  readonly file: string;
  readonly intervalMs: number;
}

export type CheckpointMessage =
  | { readonly kind: 'checkpointed'; readonly frames: number; readonly copied: number }
  | { readonly kind: 'failed'; readonly message: string };

export interface CheckpointerHooks {
  /**
   * The log holds `frames` frames although they were copied: a checkpoint beside a busy writer never finds the log
   * all copied when the next write starts, which is when SQLite starts the log over. The writer's own checkpoint,
   * between two of its writes, copies what is left and lets the next write start it over.
   */
  readonly onLogLong: (frames: number) => void;
  /** The thread failed or could not start: the writer checkpoints by itself again. */
  readonly onFailed: (message: string) => void;
}

/** How often the thread looks for commits to copy back. */
const INTERVAL_MS = 200;
/** Frames in the log (4 KiB each) past which the writer is asked to let it start over: 16 MiB. */
export const LONG_LOG_FRAMES = 4_096;

/**
 * The worker's entry: the compiled `wal-checkpoint-worker.js` beside this file (in `dist/`), or the build's copy of it
 * when this runs from `src/` (tests, development). Worker threads cannot load TypeScript.
 */
function workerEntry(): string | null {
  const candidates = [
    join(__dirname, 'wal-checkpoint-worker.js'),
    join(__dirname, '..', '..', '..', 'dist', 'infra', 'sqlite', 'wal-checkpoint-worker.js'),
  ];
  return candidates.find((path) => existsSync(path)) ?? null;
}

/**
 * Checkpoints the write-ahead log on a thread of its own. SQLite checkpoints by itself inside the `COMMIT` that takes
 * the log over 1,000 pages: it fsyncs the log, copies the pages into the file and fsyncs the file, on the thread that
 * runs JavaScript, and every request waits (measured with `backend/bench/commit-times.ts` under `npm run bench:store`:
 * 39 commits over 2 ms, up to 7.5 ms, against none over 1.7 ms with this). Here a connection on a worker thread does it
 * instead, every 200 ms when something was committed; a passive checkpoint never blocks the writer, and the writer
 * only copies the few pages left when the log has grown long.
 */
export class WalCheckpointer {
  private constructor(private readonly worker: Worker) {}

  /** Starts the thread, or returns null when its entry is not built (the writer then checkpoints by itself). */
  static start(file: string, hooks: CheckpointerHooks): WalCheckpointer | null {
    const entry = workerEntry();
    if (!entry) return null;
    const worker = new Worker(entry, { workerData: { file, intervalMs: INTERVAL_MS } satisfies CheckpointWorkerData });
    worker.unref(); // never what keeps the process alive
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      hooks.onFailed(message);
    };
    worker.on('message', (message: CheckpointMessage) => {
      if (message.kind === 'failed') fail(message.message);
      else if (message.frames >= LONG_LOG_FRAMES) hooks.onLogLong(message.frames);
    });
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => {
      if (code !== 0) fail(`the checkpoint thread exited with code ${code}`);
    });
    return new WalCheckpointer(worker);
  }

  /** Stops the thread; it closes its connection at its next turn. */
  close(): void {
    this.worker.removeAllListeners('exit');
    this.worker.postMessage('close');
  }
}
