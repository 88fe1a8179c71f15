import {
  EventStoreDBClient,
  eventTypeFilter,
  jsonEvent,
  PersistentSubscriptionExistsError,
  type PersistentSubscriptionToAll,
  persistentSubscriptionToAllSettingsFromDefaults,
  RETRY,
  ROUND_ROBIN,
  type ResolvedEvent,
  START,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { type JobDoc, type JobOptions, JobQueue, type NewJob } from '@kora/kernel/nest';

/** The persistent subscription every worker joins (competing consumers). */
export const JOB_GROUP = 'kora-workers';
const ENQUEUED = 'JobEnqueued';
const REMOVED = 'JobsRemoved';

/** One stream per subject: its jobs, and the marks that drop the ones not started yet. */
const jobStream = (subject: string): string => `job-${subject}`;

interface Held {
  job: JobDoc;
  event: ResolvedEvent;
}

export interface EsdbJobQueueOptions extends JobOptions {
  /**
   * How long EventStoreDB waits for a worker's answer before it hands the job to another (a worker that dies drops
   * its connection, and the server redelivers its jobs at once; this covers a worker that hangs). Longer than any job.
   */
  readonly messageTimeoutMs?: number;
  /** Deliveries before a job is parked (a job that keeps killing its worker). */
  readonly maxRetryCount?: number;
  readonly group?: string;
}

/**
 * Jobs as competing consumers of an EventStoreDB persistent subscription (the cluster's job transport). `enqueue`
 * appends `JobEnqueued` to `job-{subject}` (the job id is the event id, so a repeated enqueue is the same event and the
 * server keeps one); every worker process joins the `kora-workers` group on $all, filtered on that event type, with
 * a buffer of as many jobs as it runs at once, and the server hands each job to one of them. A job is acknowledged
 * when it ends, negatively acknowledged ("retry") when its worker shuts down, and redelivered to another worker when
 * the holder's connection drops or it does not answer within `messageTimeoutMs`; after `maxRetryCount` deliveries it
 * is parked for an operator.
 *
 * `removeFor` cannot take a message back from the server: it appends `JobsRemoved` to the subject's stream, and a
 * worker that receives a job enqueued before that mark acknowledges it without running it. Handlers also refuse
 * stale jobs themselves (the track or session no longer waits for that job id), so a late delivery never runs twice.
 *
 * Not exercised on this machine (no EventStoreDB server): the job-queue contract suite runs it when `EVENTSTORE_URL`
 * is set.
 */
export class EsdbJobQueue extends JobQueue {
  private readonly client: EventStoreDBClient;
  private readonly group: string;
  private subscription: PersistentSubscriptionToAll | null = null;
  private ready: Promise<void> | null = null;
  /** Delivered, not yet claimed. */
  private readonly buffer: ResolvedEvent[] = [];
  /** Claimed by this process, by job id. */
  private readonly held = new Map<string, Held>();
  private failure: Error | null = null;

  constructor(
    connectionString: string,
    private readonly options: EsdbJobQueueOptions,
  ) {
    super();
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.group = options.group ?? JOB_GROUP;
  }

  async enqueue(job: NewJob): Promise<void> {
    const event = jsonEvent({ id: job._id, type: ENQUEUED, data: { ...job } as Record<string, unknown> });
    try {
      // The event id lets the server drop a repeated append; a subject may have several jobs over its life (a track
      // processed again), so no expected revision. Duplicates that get through are skipped by `stillWanted`.
      await this.client.appendToStream(jobStream(job.subject), event);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }

  async removeFor(subject: string): Promise<void> {
    await this.client.appendToStream(jobStream(subject), jsonEvent({ type: REMOVED, data: { subject } }));
  }

  async claim(workerId: string, kinds: readonly string[]): Promise<JobDoc | null> {
    await this.subscribe();
    if (this.failure) throw this.failure;
    for (;;) {
      const event = this.buffer.shift();
      if (!event?.event) return null;
      const job = event.event.data as unknown as JobDoc;
      if (!kinds.includes(job.kind)) {
        // Another kind of worker's job (this process has no handler for it): let the server hand it on.
        await this.subscription!.nack(RETRY, `no ${job.kind} handler on ${workerId}`, event);
        continue;
      }
      if (!(await this.stillWanted(job, event))) {
        await this.subscription!.ack(event);
        continue;
      }
      const claimed: JobDoc = { ...job, workerId, leaseUntil: Date.now() + this.options.leaseMs };
      this.held.set(job._id, { job: claimed, event });
      return claimed;
    }
  }

  /** The server holds the job for this worker until it answers, the connection drops or the message times out. */
  async renew(job: JobDoc, workerId: string): Promise<boolean> {
    return this.held.get(job._id)?.job.workerId === workerId && this.subscription !== null && !this.failure;
  }

  async release(job: JobDoc): Promise<void> {
    const held = this.held.get(job._id);
    if (!held || !this.subscription) return;
    this.held.delete(job._id);
    await this.subscription.nack(RETRY, 'worker shutting down', held.event);
  }

  async done(job: JobDoc): Promise<void> {
    const held = this.held.get(job._id);
    if (!held || !this.subscription) return;
    this.held.delete(job._id);
    await this.subscription.ack(held.event);
  }

  override async close(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    this.ready = null;
    // Unanswered deliveries go back to the group when the subscription ends.
    this.buffer.length = 0;
    this.held.clear();
    await subscription?.unsubscribe().catch(() => undefined);
  }

  /** Nest calls this once the application stops (the runner may close and rejoin before that). */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
    await this.client.dispose();
  }

  /** Creates the group on first use (idempotent across workers), then joins it. */
  private subscribe(): Promise<void> {
    this.ready ??= (async () => {
      try {
        await this.client.createPersistentSubscriptionToAll(
          this.group,
          persistentSubscriptionToAllSettingsFromDefaults({
            startFrom: START,
            messageTimeout: this.options.messageTimeoutMs ?? 60 * 60_000,
            maxRetryCount: this.options.maxRetryCount ?? 5,
            consumerStrategyName: ROUND_ROBIN,
          }),
          { filter: eventTypeFilter({ prefixes: [ENQUEUED] }) },
        );
      } catch (error) {
        if (!(error instanceof PersistentSubscriptionExistsError)) throw error;
      }
      const subscription = this.client.subscribeToPersistentSubscriptionToAll(this.group, {
        bufferSize: Math.max(1, this.options.workers),
      });
      subscription.on('data', (event: ResolvedEvent) => this.buffer.push(event));
      subscription.on('error', (error: Error) => {
        this.failure = error;
        this.ready = null;
      });
      this.failure = null;
      this.subscription = subscription;
    })().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /**
   * False when the subject's stream has a removal mark after this job's event, or the same job enqueued earlier (the
   * server's duplicate check on event ids is best effort; the first copy is the one that runs).
   */
  private async stillWanted(job: JobDoc, delivered: ResolvedEvent): Promise<boolean> {
    const revision = delivered.event!.revision;
    for await (const resolved of this.client.readStream(jobStream(job.subject))) {
      const event = resolved.event;
      if (!event) continue;
      if (event.revision < revision && event.type === ENQUEUED && (event.data as { _id?: string })._id === job._id) {
        return false;
      }
      if (event.revision > revision && event.type === REMOVED) return false;
    }
    return true;
  }
}
