import type { JobProgress } from '../../src/types';

/**
 * The most CPU time the worker thread spent between two of its progress words (its first word counted from the
 * thread's start, loading the engine included), or undefined when it sent fewer than two. That thread's own CPU time
 * is the work done between them, which does not stretch with the machine's load: timed at the caller, a gap also
 * counts the time a loaded machine gave other threads (1,082 ms once in CI for 250 ms heartbeats).
 */
export function largestCpuGap(events: readonly JobProgress[]): { words: number; gapMs: number } {
  const stamps = events.filter((e) => e.cpuMs !== undefined).map((e) => e.cpuMs!);
  let gapMs = stamps[0] ?? Infinity;
  for (let i = 1; i < stamps.length; i++) gapMs = Math.max(gapMs, stamps[i]! - stamps[i - 1]!);
  return { words: stamps.length, gapMs };
}
