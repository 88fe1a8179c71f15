/**
 * The stage context a pipeline runs its stages in: progress (0..1, never decreasing), cooperative cancellation and
 * event-loop yielding. (Not the kernel's `JobContext`, which is the slot a job runs in on the server: its signal,
 * working directory and worker.) It sits below the stages, which import it; `job/` runs the pipelines and imports
 * them, so no import runs back up.
 *
 * Long DSP work runs in chunks; after each chunk the code awaits `tick(fraction)`, which throws CancelledError once
 * the signal is aborted, reports progress (throttled) and yields to the event loop every ~40 ms so that abort
 * messages, timers and progress messages get through even in a worker that does nothing but DSP. While a stage waits
 * on something that does not tick (an ffmpeg child encoding the preview, a file being written), a heartbeat repeats
 * the current progress every `progressIntervalMs`, so a caller hears from the job at least that often whatever it
 * is doing.
 */
import { performance } from 'node:perf_hooks';
import { CancelledError } from '../errors';
import type { JobProgress, StageTimings } from '../types';

/** Reports the fraction (0..1) done of the current stage; rejects with CancelledError when cancelled. */
export type Tick = (fraction: number) => Promise<void>;

/** Resources a supervisor must clean up if the job has to be killed (child processes, temporary files). */
export type ResourceEvent =
  { type: 'child'; pid: number; alive: boolean } | { type: 'temp'; path: string; alive: boolean };

export interface StageContextOptions {
  signal?: AbortSignal;
  onProgress?: (event: JobProgress) => void;
  onResource?: (event: ResourceEvent) => void;
  /**
   * Minimum interval between two progress events with the same value, ms (default 250); also the heartbeat's period
   * while a stage waits without ticking.
   */
  progressIntervalMs?: number;
}

const YIELD_EVERY_MS = 40;

export class StageContext {
  readonly signal: AbortSignal | undefined;
  readonly timings: StageTimings = {};
  private readonly onProgress: ((event: JobProgress) => void) | undefined;
  private readonly onResource: ((event: ResourceEvent) => void) | undefined;
  private readonly interval: number;
  private weights = new Map<string, number>();
  private totalWeight = 1;
  private doneWeight = 0;
  private current = { name: 'start', weight: 0 };
  private lastValue = -1;
  private lastFraction = 0;
  private lastEmit = 0;
  private lastYield = performance.now();
  private readonly started = performance.now();

  constructor(options: StageContextOptions = {}) {
    this.signal = options.signal;
    this.onProgress = options.onProgress;
    this.onResource = options.onResource;
    this.interval = options.progressIntervalMs ?? 250;
  }

  /** Declares the stages to come and their relative cost (measured run times make good weights). */
  plan(weights: Record<string, number>): void {
    this.weights = new Map(Object.entries(weights));
    this.totalWeight = [...this.weights.values()].reduce((a, b) => a + b, 0) || 1;
    this.doneWeight = 0;
  }

  throwIfCancelled(): void {
    if (this.signal?.aborted) throw new CancelledError();
  }

  /** Runs one stage, timing it and advancing overall progress to the stage's end when it completes. */
  async stage<T>(name: string, run: (tick: Tick) => Promise<T> | T): Promise<T> {
    this.throwIfCancelled();
    const weight = this.weights.get(name) ?? 0;
    this.current = { name, weight };
    const t0 = performance.now();
    this.lastFraction = 0;
    this.emit(0, true);
    // Due when nothing was said for a period: the same-value throttle (also one period) would let a heartbeat that
    // fires a moment early skip its turn, and the caller wait two periods, more under load.
    const heartbeat = this.onProgress
      ? setInterval(
          () => this.emit(this.lastFraction, performance.now() - this.lastEmit >= this.interval * 0.8),
          this.interval,
        )
      : null;
    heartbeat?.unref();
    let result: T;
    try {
      result = await run(this.tick);
    } finally {
      if (heartbeat) clearInterval(heartbeat);
    }
    this.timings[name] = (this.timings[name] ?? 0) + (performance.now() - t0) / 1000;
    this.doneWeight += weight;
    this.emit(0, true);
    return result;
  }

  /** Overall progress at fraction f of the current stage. */
  private value(fraction: number): number {
    const f = Math.min(1, Math.max(0, fraction));
    return Math.min(1, (this.doneWeight + this.current.weight * f) / this.totalWeight);
  }

  private emit(fraction: number, force: boolean): void {
    if (!this.onProgress) return;
    const value = Math.max(this.lastValue, this.value(fraction));
    const now = performance.now();
    if (!force && value - this.lastValue < 0.002 && now - this.lastEmit < this.interval) return;
    this.lastValue = value;
    this.lastEmit = now;
    this.onProgress({ progress: Math.round(value * 10000) / 10000, stage: this.current.name });
  }

  readonly tick: Tick = async (fraction: number) => {
    this.throwIfCancelled();
    this.lastFraction = fraction;
    this.emit(fraction, false);
    const now = performance.now();
    if (now - this.lastYield >= YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.lastYield = performance.now();
      this.throwIfCancelled();
    }
  };

  /** Marks the job complete (progress 1) and records the total time. */
  finish(): void {
    this.timings.total = (performance.now() - this.started) / 1000;
    this.doneWeight = this.totalWeight;
    this.current = { name: 'done', weight: 0 };
    this.emit(1, true);
  }

  resource(event: ResourceEvent): void {
    this.onResource?.(event);
  }
}

/** Runs `body(start, end)` over [0, length) in chunks, ticking after each chunk. */
export async function forChunks(
  length: number,
  chunk: number,
  tick: Tick,
  body: (start: number, end: number) => void,
  from = 0,
  to = 1,
): Promise<void> {
  for (let start = 0; start < length; start += chunk) {
    const end = Math.min(length, start + chunk);
    body(start, end);
    await tick(from + ((to - from) * end) / length);
  }
}
