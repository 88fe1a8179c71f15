import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore, type Subscription } from '../../event-store';
import type { RecordedEvent } from '../../events';
import { sleep } from '../../notifier';
import { scratchPrefix } from '../../scratch';
import { type JobDoc, JOB_OPTIONS, type JobOptions, JobQueue } from './job-queue';

/** How a kind of job runs. Handlers record their own steps (started, progress, result, failure) as events. */
export interface JobHandler {
  readonly kind: string;
  /** Event types that cancel a running job, and the subject each one addresses. */
  readonly cancelledBy: readonly string[];
  subjectOf(event: RecordedEvent): string;
  /**
   * Runs the job. Resolve when the job's outcome is recorded (success or failure); reject with a cancellation when
   * `signal` aborts. `workDir` is a fresh temporary directory, removed afterwards. `niceness`: how much lower than
   * the process to schedule the heavy work (`JobOptions.niceness`).
   */
  run(job: JobDoc, context: JobContext): Promise<void>;
}

export interface JobContext {
  signal: AbortSignal;
  workDir: string;
  workerId: string;
  niceness: number;
}

interface Running {
  controller: AbortController;
  stoppedBy: 'cancel' | 'lease' | 'shutdown' | null;
}

const IDLE_POLL_MS = 500;

/**
 * Runs background jobs of every registered kind: claims them from the shared queue (up to `workers` at once),
 * renews their leases, and stops one within a second when an event cancels it, wherever that event was appended
 * (the runner follows the log). A job that ends is removed from the queue; one stopped by a shutdown is handed back.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  readonly workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, Running>();
  private readonly finished = new Set<Promise<void>>();
  private stopping = new AbortController();
  private loop: Promise<void> | null = null;
  private cancellations: Subscription | null = null;

  constructor(
    private readonly queue: JobQueue,
    private readonly events: EventStore,
    @Inject(JOB_OPTIONS) private readonly options: JobOptions,
  ) {}

  /** Modules register their handlers in `onModuleInit`. */
  register(handler: JobHandler): void {
    if (this.handlers.has(handler.kind)) throw new Error(`Job handler ${handler.kind} registered twice`);
    this.handlers.set(handler.kind, handler);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.workers > 0 && this.handlers.size > 0) await this.start();
  }

  async start(): Promise<void> {
    this.stopping = new AbortController();
    const cancelling = [...new Set([...this.handlers.values()].flatMap((handler) => handler.cancelledBy))];
    this.cancellations = this.events.subscribe(
      { after: await this.events.headPosition(), types: cancelling },
      async (events) => {
        for (const event of events) {
          for (const handler of this.handlers.values()) {
            if (handler.cancelledBy.includes(event.type)) this.stopFor(handler.subjectOf(event), 'cancel');
          }
        }
      },
    );
    this.loop = this.claimLoop();
    this.logger.log(`worker ${this.workerId} runs up to ${this.options.workers} job(s) at once`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    for (const subject of this.running.keys()) this.stopFor(subject, 'shutdown');
    await this.loop;
    await Promise.all(this.finished);
    await this.queue.close();
    await this.cancellations?.stop();
    this.cancellations = null;
  }

  /** Jobs running in this process. */
  get active(): number {
    return this.running.size;
  }

  private stopFor(subject: string, reason: Running['stoppedBy']): void {
    const running = this.running.get(subject);
    if (!running || running.stoppedBy) return;
    running.stoppedBy = reason;
    running.controller.abort();
  }

  private async claimLoop(): Promise<void> {
    const signal = this.stopping.signal;
    const kinds = [...this.handlers.keys()];
    while (!signal.aborted) {
      try {
        if (this.running.size < this.options.workers) {
          const job = await this.queue.claim(this.workerId, kinds);
          if (job) {
            const done: Promise<void> = this.run(job).finally(() => this.finished.delete(done));
            this.finished.add(done);
            continue;
          }
        }
      } catch (error) {
        this.logger.error(`claiming a job failed: ${String(error)}`);
      }
      const seen = this.events.appended.version;
      await Promise.race([this.events.appended.wait(seen, IDLE_POLL_MS, signal), sleep(IDLE_POLL_MS, signal)]);
    }
  }

  private async run(job: JobDoc): Promise<void> {
    const handler = this.handlers.get(job.kind)!;
    const running: Running = { controller: new AbortController(), stoppedBy: null };
    this.running.set(job.subject, running);
    const heartbeat = setInterval(() => {
      this.queue.renew(job, this.workerId).then(
        (held) => !held && this.stopFor(job.subject, 'lease'),
        () => undefined,
      );
    }, this.options.leaseMs / 3);
    heartbeat.unref();
    const workDir = await mkdtemp(join(tmpdir(), scratchPrefix('job')));
    try {
      await handler.run(job, {
        signal: running.controller.signal,
        workDir,
        workerId: this.workerId,
        niceness: this.options.niceness ?? 0,
      });
    } catch (error) {
      if (!running.stoppedBy)
        this.logger.error(`job ${job._id} (${job.kind}) failed: ${(error as Error)?.stack ?? String(error)}`);
    } finally {
      clearInterval(heartbeat);
      this.running.delete(job.subject);
      await rm(workDir, { recursive: true, force: true });
      if (running.stoppedBy === 'shutdown') await this.queue.release(job, this.workerId).catch(() => undefined);
      else if (running.stoppedBy !== 'lease') await this.queue.done(job).catch(() => undefined);
    }
  }
}
