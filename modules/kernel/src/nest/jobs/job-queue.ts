import { Inject, Injectable } from '@nestjs/common';
import type { Document } from '../../read-store';
import { ReadStore } from '../../read-store';

/** A unit of background work (processing a track, rendering a mix), waiting for or held by a worker. */
export interface JobDoc<P = unknown> extends Document {
  /** The job id. */
  _id: string;
  /** Which handler runs it. */
  kind: string;
  /** What the job works on (a track id, a session id): cancellations are addressed to it. */
  subject: string;
  userId: string;
  payload: P;
  enqueuedAt: string;
  /** Set while a worker holds the job; another may take it once the lease has expired. */
  workerId: string | null;
  leaseUntil: number;
}

export const JOBS = '_jobs';
export const JOB_OPTIONS = Symbol.for('kora.jobs.options');

export interface JobOptions {
  /** Jobs this process runs at once (0: none, an API replica beside workers). */
  readonly workers: number;
  /** How long a worker's hold lasts without renewal. */
  readonly leaseMs: number;
  /**
   * How much lower than the process the jobs' heavy work is scheduled (nice values, 0-19; default 0): handlers pass
   * it to the engine, so requests get the CPU first.
   */
  readonly niceness?: number;
}

/** What a job looks like before the queue takes it. */
export type NewJob = Omit<JobDoc, 'workerId' | 'leaseUntil'>;

/**
 * The queue of background jobs (port). Modules' processors enqueue a job when its request event arrives (at least
 * once: enqueueing the same id twice gives one job) and remove a subject's jobs when its outcome is recorded; the
 * `JobRunner` of each worker process claims jobs, keeps its hold on them while they run, and marks them done or hands
 * them back. Two workers never hold the same job, and a job whose worker died is held by another one later.
 *
 * Adapters: `ReadStoreJobQueue` (the read store's `_jobs` collection with leases; embedded and MongoDB) and, in a
 * cluster on EventStoreDB, competing consumers of a persistent subscription (`EsdbJobQueue` in the backend).
 */
export abstract class JobQueue {
  abstract enqueue(job: NewJob): Promise<void>;
  /** Drops every job of a subject that no worker has started (its work is finished, cancelled or deleted). */
  abstract removeFor(subject: string): Promise<void>;
  /** The oldest job of these kinds that nobody holds, now held by `workerId`, or null when there is none. */
  abstract claim(workerId: string, kinds: readonly string[]): Promise<JobDoc | null>;
  /** Keeps the hold on a running job; false when the worker no longer holds it (another worker may run it). */
  abstract renew(job: JobDoc, workerId: string): Promise<boolean>;
  /** Gives a job back unfinished (shutdown): another worker may take it at once. */
  abstract release(job: JobDoc, workerId: string): Promise<void>;
  /** The job ended (its outcome is recorded as events): it is never handed out again. */
  abstract done(job: JobDoc): Promise<void>;
  /** Stops receiving jobs (a worker's subscription); the default has nothing to close. */
  async close(): Promise<void> {}
}

/**
 * The queue in the read store (embedded or MongoDB), shared by every worker: a worker claims the oldest free job
 * inside a transaction and holds a lease it renews, so two workers never run the same job, and a job whose worker
 * died is taken again once its lease has run out.
 */
@Injectable()
export class ReadStoreJobQueue extends JobQueue {
  constructor(
    private readonly reads: ReadStore,
    @Inject(JOB_OPTIONS) readonly options: JobOptions,
  ) {
    super();
  }

  private get jobs() {
    return this.reads.collection<JobDoc>(JOBS);
  }

  async enqueue(job: NewJob): Promise<void> {
    await this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      if (!(await jobs.findById(job._id))) await jobs.upsert({ ...job, workerId: null, leaseUntil: 0 });
    });
  }

  async removeFor(subject: string): Promise<void> {
    await this.jobs.deleteMany({ subject });
  }

  claim(workerId: string, kinds: readonly string[], now = Date.now()): Promise<JobDoc | null> {
    return this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      const [free] = await jobs.find(
        { kind: { $in: [...kinds] }, leaseUntil: { $lt: now } },
        { sort: { enqueuedAt: 1 }, limit: 1 },
      );
      if (!free) return null;
      const claimed = { ...free, workerId, leaseUntil: now + this.options.leaseMs };
      await jobs.upsert(claimed);
      return claimed;
    });
  }

  renew(job: JobDoc, workerId: string, now = Date.now()): Promise<boolean> {
    return this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      const current = await jobs.findById(job._id);
      if (!current || current.workerId !== workerId) return false;
      await jobs.upsert({ ...current, leaseUntil: now + this.options.leaseMs });
      return true;
    });
  }

  async release(job: JobDoc, workerId: string): Promise<void> {
    await this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      const current = await jobs.findById(job._id);
      if (current?.workerId === workerId) await jobs.upsert({ ...current, workerId: null, leaseUntil: 0 });
    });
  }

  async done(job: JobDoc): Promise<void> {
    await this.jobs.deleteById(job._id);
  }

  /** Jobs waiting or held (operators and tests). */
  pending(kind?: string): Promise<number> {
    return this.jobs.count(kind ? { kind } : {});
  }
}
