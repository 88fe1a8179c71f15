import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type Document, EventStore, type RecordedEvent, ReadStore, streamId } from '@kora/kernel';
import { ProcessorRegistry } from '@kora/kernel/nest';
import type { ProcessingOptions, TrackEvent, TrackService, TrackUploaded } from '../../contracts/events';
import { AUDIO_OPTIONS, type AudioOptions } from '../audio-options';

/** A job waiting for (or held by) a worker; one per track with processing to do. */
export interface JobDoc extends Document {
  /** The track id. */
  _id: string;
  jobId: string;
  userId: string;
  service: TrackService;
  options: ProcessingOptions;
  upload: TrackUploaded['data'];
  enqueuedAt: string;
  /** Set while a worker holds the job; another may take it once the lease has expired. */
  workerId: string | null;
  leaseUntil: number;
}

export const JOBS = '_jobs';
/** A worker renews its lease every third of this; a job whose worker stops renewing is taken again after it. */
export const DEFAULT_LEASE_MS = 15_000;

const FINISHED: ReadonlySet<string> = new Set([
  'PreviewReady',
  'StemsReady',
  'ProcessingFailed',
  'ProcessingCancelled',
  'TrackDeleted',
]);

/**
 * The queue of processing jobs, shared by every worker through the read store. A processor keeps it in step with
 * the tracks' events (a request enqueues; a result, a failure, a cancellation or a deletion removes); workers claim
 * jobs with a lease inside a transaction, so two workers never run the same job, and a job whose worker died is
 * taken again once its lease has run out.
 */
@Injectable()
export class JobQueue implements OnModuleInit {
  constructor(
    private readonly reads: ReadStore,
    private readonly events: EventStore,
    private readonly registry: ProcessorRegistry,
    @Inject(AUDIO_OPTIONS) private readonly options: AudioOptions,
  ) {}

  get leaseMs(): number {
    return this.options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  onModuleInit(): void {
    this.registry.register({
      name: 'job-queue',
      handles: ['ProcessingRequested', ...FINISHED],
      handle: (event) => this.apply(event as RecordedEvent<TrackEvent>),
    });
  }

  private get jobs() {
    return this.reads.collection<JobDoc>(JOBS);
  }

  private async apply(event: RecordedEvent<TrackEvent>): Promise<void> {
    const trackId = streamId(event.streamName);
    if (FINISHED.has(event.type)) {
      await this.jobs.deleteById(trackId);
      return;
    }
    if (event.type !== 'ProcessingRequested' || (await this.jobs.findById(trackId))) return;
    const [first] = await this.events.readStream<TrackEvent>(event.streamName, { maxCount: 1 });
    if (first?.type !== 'TrackUploaded') return;
    await this.jobs.upsert({
      _id: trackId,
      jobId: event.data.jobId,
      userId: first.data.ownerId,
      service: event.data.service,
      options: event.data.options,
      upload: first.data,
      enqueuedAt: event.metadata.occurredAt,
      workerId: null,
      leaseUntil: 0,
    });
  }

  /** Takes the oldest job nobody holds (or whose holder stopped renewing), or null. */
  async claim(workerId: string, now = Date.now()): Promise<JobDoc | null> {
    return this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      const [free] = await jobs.find({ leaseUntil: { $lt: now } }, { sort: { enqueuedAt: 1 }, limit: 1 });
      if (!free) return null;
      const claimed = { ...free, workerId, leaseUntil: now + this.leaseMs };
      await jobs.upsert(claimed);
      return claimed;
    });
  }

  /** Extends the lease; false when the job is gone or another worker holds it now. */
  async renew(job: JobDoc, workerId: string, now = Date.now()): Promise<boolean> {
    return this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      const current = await jobs.findById(job._id);
      if (!current || current.workerId !== workerId || current.jobId !== job.jobId) return false;
      await jobs.upsert({ ...current, leaseUntil: now + this.leaseMs });
      return true;
    });
  }

  /** Gives a job back without finishing it (shutdown): another worker may take it at once. */
  async release(job: JobDoc, workerId: string): Promise<void> {
    await this.reads.transaction(async (tx) => {
      const jobs = tx.collection<JobDoc>(JOBS);
      const current = await jobs.findById(job._id);
      if (current?.workerId === workerId) await jobs.upsert({ ...current, workerId: null, leaseUntil: 0 });
    });
  }

  /** Removes a finished job at once (the processor would too, a little later). */
  async done(job: JobDoc): Promise<void> {
    await this.jobs.deleteById(job._id);
  }

  async pending(): Promise<number> {
    return this.jobs.count({});
  }
}
