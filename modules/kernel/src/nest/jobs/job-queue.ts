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
}

/**
 * The queue of background jobs, shared by every worker through the read store (embedded or MongoDB): modules'
 * processors enqueue and remove jobs as their events say; workers claim them with a lease inside a transaction, so
 * two workers never run the same job, and a job whose worker died is taken again once its lease has run out.
 */
@Injectable()
export class JobQueue {
  constructor(
    private readonly reads: ReadStore,
    @Inject(JOB_OPTIONS) readonly options: JobOptions,
  ) {}

  private get jobs() {
    return this.reads.collection<JobDoc>(JOBS);
  }

  /** Adds a job unless it is already there (processors deliver at least once). */
  async enqueue(job: Omit<JobDoc, 'workerId' | 'leaseUntil'>): Promise<void> {
    await this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      if (!(await jobs.findById(job._id))) await jobs.upsert({ ...job, workerId: null, leaseUntil: 0 });
    });
  }

  /** Removes every job of a subject (its work is finished, cancelled or deleted). */
  async removeFor(subject: string): Promise<void> {
    await this.jobs.deleteMany({ subject });
  }

  /** Takes the oldest job of these kinds that nobody holds (or whose holder stopped renewing), or null. */
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

  /** Extends the lease; false when the job is gone or another worker holds it now. */
  renew(job: JobDoc, workerId: string, now = Date.now()): Promise<boolean> {
    return this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      const current = await jobs.findById(job._id);
      if (!current || current.workerId !== workerId) return false;
      await jobs.upsert({ ...current, leaseUntil: now + this.options.leaseMs });
      return true;
    });
  }

  /** Gives a job back unfinished (shutdown): another worker may take it at once. */
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

  pending(kind?: string): Promise<number> {
    return this.jobs.count(kind ? { kind } : {});
  }
}
