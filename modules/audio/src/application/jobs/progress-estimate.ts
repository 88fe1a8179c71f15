/**
 * How far a running job is, as its owner is told: the share of the job's time already spent, and the time left.
 *
 * Two witnesses, each wrong in its own way:
 * - the model: the audio's duration times the engine's measured speed for the service (seconds of work per second of
 *   audio, a moving average over finished jobs, `engine-speed`). Right on average, wrong for a busy machine or an
 *   unusual file, and the only witness before the engine has said anything;
 * - the engine: its progress, whose stages are weighted by their measured run times. Early on it says little (a
 *   percent after half a second extrapolates to minutes), later it is the better clock.
 * The total is the model's until the engine is a quarter of the way, then moves to the engine's extrapolation. The
 * share shown never runs more than `LEAD` ahead of the engine's own progress (so a model that is too optimistic
 * cannot show 99 % two seconds into a long job) and never falls behind it (so a model that is too pessimistic
 * cannot hold a nearly finished job at a third).
 */

/** How far the time-based share may run ahead of the engine's progress. */
export const LEAD = 0.08;
/** Engine progress from which its extrapolation is fully trusted. */
const TRUSTED_FROM = 0.25;
/** The share shown while the job runs never reaches the end: 100 % is for the result. */
const CEILING = 0.99;

export interface JobEstimateInput {
  /** When the job started, ms (the server's clock). */
  startedAt: number;
  now: number;
  /** The model's duration for the whole job, ms (duration × measured speed). */
  expectedMs: number;
  /** The engine's progress, 0 to 1 (0 before it has said anything). */
  engineProgress: number;
}

export interface JobEstimate {
  /** The share of the job done, 0 to 0.99. */
  progress: number;
  /** Time left, ms (0 when the job is overdue on every witness). */
  remainingMs: number;
}

export function estimateJob({ startedAt, now, expectedMs, engineProgress }: JobEstimateInput): JobEstimate {
  const elapsed = Math.max(0, now - startedAt);
  const engine = Math.min(1, Math.max(0, Number.isFinite(engineProgress) ? engineProgress : 0));
  const model = Math.max(1000, Number.isFinite(expectedMs) ? expectedMs : 0);
  const trust = Math.min(1, engine / TRUSTED_FROM);
  const extrapolated = engine > 0 ? elapsed / engine : model;
  const total = Math.max(elapsed, (1 - trust) * model + trust * extrapolated);
  const byTime = total > 0 ? elapsed / total : 0;
  const progress = Math.min(CEILING, engine + LEAD, Math.max(engine, byTime));
  return { progress: Math.round(progress * 10000) / 10000, remainingMs: Math.round(Math.max(0, total - elapsed)) };
}
