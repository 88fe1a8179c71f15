import type { EventStore, ProjectionState, RemoteProjections, RunnerLogger } from '@kora/kernel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite/sqlite-database';
import { waitAsync } from './sqlite/thread-lock';

export interface ProjectionThreadData {
  readonly file: string;
  /** The write lock of the main thread's database (`ThreadLock.buffer`). */
  readonly threadLock: SharedArrayBuffer;
  /** One Int32 counting the durable appends of the main thread (`AppendSignal`). */
  readonly appends: SharedArrayBuffer;
  readonly pollIntervalMs: number;
}

export type ToProjectionThread = { readonly kind: 'stop' };

/**
 * The main thread's durable appends, counted in shared memory: it adds one and wakes the thread's waiter, which costs
 * no message (a `postMessage` for each append was 3 % of the main thread under `npm run bench:billing`).
 */
export class AppendSignal {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  get count(): number {
    return Atomics.load(this.cell, 0);
  }

  signal(): void {
    Atomics.add(this.cell, 0, 1);
    Atomics.notify(this.cell, 0);
  }

  /** Resolves once the count differs from `seen` (at once if it already does). */
  async changed(seen: number): Promise<void> {
    const wait = waitAsync(this.cell, 0, seen);
    if (wait.async) await wait.value;
  }
}

export type FromProjectionThread =
  | { readonly kind: 'started' }
  | { readonly kind: 'states'; readonly states: readonly ProjectionState[] }
  | {
      readonly kind: 'log';
      readonly level: 'info' | 'error';
      readonly context: Record<string, unknown>;
      readonly message: string;
    }
  | { readonly kind: 'stopped' };

/** The thread's mark in the shared write lock (`ThreadLock`). */
export const PROJECTION_THREAD_LOCK_OWNER = 2;

/** How long a stop waits for the thread to finish its step and close its connection before ending it. */
const STOP_TIMEOUT_MS = 5_000;

/**
 * The compiled worker beside this file (in `dist/`), or the build's copy of it when this runs from `src/` (tests);
 * `KORA_PROJECTION_THREAD` names another (a test's failing thread).
 */
function workerEntry(): string | null {
  const candidates = [
    ...(process.env.KORA_PROJECTION_THREAD ? [process.env.KORA_PROJECTION_THREAD] : []),
    join(__dirname, 'projection-thread-worker.js'),
    join(__dirname, '..', '..', 'dist', 'infra', 'projection-thread-worker.js'),
  ];
  return candidates.find((path) => existsSync(path)) ?? null;
}

/**
 * The projections on a worker thread of their own (`PROJECTIONS_THREAD=on`, embedded database only): their reads of
 * the log, their folds and their read-model writes leave the thread that answers requests, which was the limit of
 * `npm run bench:billing` (a fifth of its time went to the projections). The thread opens the same database file with
 * its own connections and takes the main thread's write lock (`ThreadLock`) for its commits. The main thread tells it
 * of each durable append, and it reports each step's position back, which `ProjectionRunner.waitFor` waits on; before
 * that report is read, the main thread's read transaction of the turn is ended, so what waits for it reads the
 * thread's commit.
 */
export class ProjectionThread implements RemoteProjections {
  private worker: Worker | null = null;
  private forwarding: AbortController | null = null;
  private readonly appends = new AppendSignal();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly events: EventStore,
    private readonly logger: RunnerLogger,
  ) {}

  async start(onState: (state: ProjectionState) => void, onFailed: (error: Error) => void): Promise<void> {
    const entry = workerEntry();
    if (!entry) throw new Error('the projections thread is not built (node scripts/build-server.mjs)');
    const data: ProjectionThreadData = {
      file: this.db.file,
      threadLock: this.db.threadLock.buffer,
      appends: this.appends.buffer,
      pollIntervalMs: this.events.pollIntervalMs,
    };
    const worker = new Worker(entry, { workerData: data });
    this.worker = worker;
    let started = false;
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        if (this.worker !== worker) return; // stopped on purpose
        this.worker = null;
        this.forwarding?.abort();
        this.db.threadLock.releaseIfHeldBy(PROJECTION_THREAD_LOCK_OWNER);
        if (started) onFailed(error);
        else reject(error);
      };
      worker.on('message', (message: FromProjectionThread) => {
        if (message.kind === 'started') {
          started = true;
          resolve();
        } else if (message.kind === 'states') {
          this.db.endTurnRead();
          message.states.forEach(onState);
        } else if (message.kind === 'log') {
          this.logger[message.level](message.context, message.message);
        }
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the projections thread exited with code ${code}`)));
    });
    void this.forwardAppends();
  }

  /** Tells the thread of every durable append, so its loops read the log at once rather than at their next poll. */
  private async forwardAppends(): Promise<void> {
    const forwarding = new AbortController();
    this.forwarding = forwarding;
    const appended = this.events.appended;
    while (!forwarding.signal.aborted) {
      const seen = appended.version;
      await appended.wait(seen, 60_000, forwarding.signal, true);
      if (!forwarding.signal.aborted && appended.version !== seen) this.appends.signal();
    }
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.forwarding?.abort();
    if (!worker) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        this.db.threadLock.releaseIfHeldBy(PROJECTION_THREAD_LOCK_OWNER);
        resolve();
      });
      worker.postMessage({ kind: 'stop' } satisfies ToProjectionThread);
    });
  }
}
