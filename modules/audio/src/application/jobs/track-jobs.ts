import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventStore, type RecordedEvent, streamId } from '@kora/kernel';
import { JobQueue, ProcessorRegistry } from '@kora/kernel/nest';
import type { ProcessingOptions, TrackEvent, TrackService, TrackUploaded } from '../../contracts/events';

export const TRACK_JOB = 'track';

/** What a track job carries: the request and the upload it works on. */
export interface TrackJobPayload {
  service: TrackService;
  options: ProcessingOptions;
  upload: TrackUploaded['data'];
}

const FINISHED = ['PreviewReady', 'StemsReady', 'ProcessingFailed', 'ProcessingCancelled', 'TrackDeleted'] as const;

/** Keeps the job queue in step with the tracks: a processing request enqueues a job, its outcome removes it. */
@Injectable()
export class TrackJobs implements OnModuleInit {
  constructor(
    private readonly queue: JobQueue,
    private readonly events: EventStore,
    private readonly registry: ProcessorRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'track-jobs',
      handles: ['ProcessingRequested', ...FINISHED],
      handle: (event) => this.apply(event as RecordedEvent<TrackEvent>),
    });
  }

  private async apply(event: RecordedEvent<TrackEvent>): Promise<void> {
    const trackId = streamId(event.streamName);
    if (event.type !== 'ProcessingRequested') {
      await this.queue.removeFor(trackId);
      return;
    }
    const upload = event.data.upload ?? (await this.uploadOf(event.streamName));
    if (!upload) return;
    await this.queue.enqueue({
      _id: event.data.jobId,
      kind: TRACK_JOB,
      subject: trackId,
      userId: upload.ownerId,
      payload: {
        service: event.data.service,
        options: event.data.options,
        upload,
      } satisfies TrackJobPayload,
      enqueuedAt: event.metadata.occurredAt,
    });
  }

  /** The upload of a request recorded before requests carried it: the stream's first event. */
  private async uploadOf(streamName: string): Promise<TrackUploaded['data'] | null> {
    const [first] = await this.events.readStream<TrackEvent>(streamName, { maxCount: 1 });
    return first?.type === 'TrackUploaded' ? first.data : null;
  }
}
