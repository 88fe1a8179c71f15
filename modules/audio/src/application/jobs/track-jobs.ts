import { Injectable, type OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CancelledError, EngineError, type JobRequest, type JobResult, runJob } from '@kora/audio-engine';
import { BlobStore, EventStore, type RecordedEvent, streamId } from '@kora/kernel';
import {
  CommandContexts,
  type JobContext,
  type JobDoc,
  type JobHandler,
  type JobRequests,
  jobRequestsProcessor,
  JobQueue,
  JobRunner,
  type NewJob,
  ProcessorRegistry,
  RealtimeRegistry,
} from '@kora/kernel/nest';
import type {
  LoudnessSummary,
  ProcessingOptions,
  ProcessingRequested,
  TrackEvent,
  TrackFiles,
  TrackService,
  TrackStatus,
  TrackUploaded,
} from '../../contracts/events';
import { ORIGINAL_WAV, stemFile, stemPreviewFile } from '../../contracts/files';
import { type EngineSpeedDocument, GetEngineSpeed } from '../../contracts/queries';
import { StaleJobError, TrackNotFoundError } from '../../domain/errors';
import { TrackCommands } from '../track-commands';
import { trackStatusMessage } from '../tracks/track-realtime';
import { makePreview } from './preview';
import { estimateJob } from './progress-estimate';
import { DEFAULT_REAL_TIME_FACTOR, FAILURE_MESSAGES, statusForStage } from './stage-status';

export const TRACK_JOB = 'track';

/** What a track job carries: the request and the upload it works on. */
export interface TrackJobPayload {
  service: TrackService;
  options: ProcessingOptions;
  upload: TrackUploaded['data'];
}

const PROGRESS_INTERVAL_MS = 500;

/**
 * Track jobs: enqueued when processing is requested (with the upload the request carries), removed once the track
 * has an outcome. A worker records the start (a job whose track was cancelled, deleted or finished meanwhile stops
 * there), runs the engine in a worker thread on the original, stores the outputs under `tracks/{trackId}/`, and
 * records the result or the failure. Fine progress goes to the owner's sockets; each new status is recorded.
 */
@Injectable()
export class TrackJobs implements JobHandler, JobRequests, OnModuleInit {
  readonly kind = TRACK_JOB;
  readonly processor = 'track-jobs';
  readonly requestedBy = 'ProcessingRequested';
  readonly finishedBy = ['PreviewReady', 'StemsReady', 'ProcessingFailed', 'ProcessingCancelled', 'TrackDeleted'];
  readonly cancelledBy = ['ProcessingCancelled', 'TrackDeleted'];

  constructor(
    private readonly queue: JobQueue,
    private readonly registry: ProcessorRegistry,
    private readonly events: EventStore,
    private readonly runner: JobRunner,
    private readonly tracks: TrackCommands,
    private readonly blobs: BlobStore,
    private readonly contexts: CommandContexts,
    private readonly realtime: RealtimeRegistry,
    private readonly queries: QueryBus,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
    this.registry.register(jobRequestsProcessor(this.queue, this));
  }

  subjectOf(event: RecordedEvent): string {
    return streamId(event.streamName);
  }

  async jobFor(recorded: RecordedEvent): Promise<NewJob | null> {
    const event = recorded as RecordedEvent<ProcessingRequested>;
    const upload = event.data.upload ?? (await this.uploadOf(event.streamName));
    if (!upload) return null;
    return {
      _id: event.data.jobId,
      kind: TRACK_JOB,
      subject: streamId(event.streamName),
      userId: upload.ownerId,
      payload: {
        service: event.data.service,
        options: event.data.options,
        upload,
      } satisfies TrackJobPayload,
      enqueuedAt: event.metadata.occurredAt,
    };
  }

  /** The upload of a request recorded before requests carried it: the stream's first event. */
  private async uploadOf(streamName: string): Promise<TrackUploaded['data'] | null> {
    const [first] = await this.events.readStream<TrackEvent>(streamName, { maxCount: 1 });
    return first?.type === 'TrackUploaded' ? first.data : null;
  }

  async run(doc: JobDoc, { signal, workDir, workerId, niceness }: JobContext): Promise<void> {
    const job = doc as JobDoc<TrackJobPayload>;
    const trackId = job.subject;
    const context = this.contexts.forSystem(job.userId, job._id);
    try {
      const started = await this.tracks.execute(
        trackId,
        { type: 'StartProcessing', jobId: job._id, workerId },
        context,
        { settle: false },
      );
      if (started.events.some((event) => event.type === 'ProcessingFailed')) return;
      if (!this.request(job, workDir, '')) {
        await this.fail(job, 'PROCESSING.UNSUPPORTED_SERVICE');
        return;
      }
      const startedAt = Date.now();
      const run = (input: string, reference?: string) =>
        runJob(this.request(job, workDir, input, reference)!, {
          signal,
          niceness,
          onProgress: this.progressReporter(job, startedAt),
        });
      const referenceKey = job.payload.options.referenceKey;
      const result = await this.blobs.withLocalFile(job.payload.upload.originalKey, (input) =>
        referenceKey ? this.blobs.withLocalFile(referenceKey, (reference) => run(input, reference)) : run(input),
      );
      const files = await this.storeOutputs(job, result, workDir, signal);
      await this.tracks.execute(
        trackId,
        {
          type: 'CompleteProcessing',
          jobId: job._id,
          files,
          stems: result.kind === 'stems' ? result.stems.map((stem) => stem.name) : null,
          processingSeconds: (Date.now() - startedAt) / 1000,
          durationSec: job.payload.upload.durationSec,
          ...summaries(result),
        },
        context,
        { settle: false },
      );
    } catch (error) {
      if (error instanceof StaleJobError || error instanceof TrackNotFoundError) return; // stopped or done elsewhere
      if (error instanceof CancelledError || signal.aborted) throw error;
      await this.fail(job, error instanceof EngineError ? error.code : 'PROCESSING.FAILED').catch(() => undefined);
      if (!(error instanceof EngineError)) throw error;
    }
  }

  private async fail(job: JobDoc<TrackJobPayload>, code: string): Promise<void> {
    await this.tracks.execute(
      job.subject,
      {
        type: 'FailProcessing',
        jobId: job._id,
        code,
        message: FAILURE_MESSAGES[code] ?? 'Processing failed. Please try again.',
      },
      this.contexts.forSystem(job.userId, job._id),
      { settle: false },
    );
  }

  /** The engine request for a job, or null when the engine cannot do that service yet. */
  private request(job: JobDoc<TrackJobPayload>, outDir: string, input: string, reference?: string): JobRequest | null {
    const { service, options, upload } = job.payload;
    const claimedType = upload.format;
    switch (service) {
      case 'AI_MASTERING':
        return {
          kind: 'master',
          input,
          outDir,
          claimedType,
          options: {
            intensity: options.intensity ?? 'medium',
            // With a reference and no target, the engine takes the reference's loudness.
            ...(reference && !options.target ? {} : { target: options.target ?? 'streaming' }),
            ...(reference ? { reference } : {}),
          },
        };
      case 'AUDIO_ENHANCEMENT':
        return {
          kind: 'enhance',
          input,
          outDir,
          claimedType,
          options: { preset: options.preset ?? (upload.isVideo ? 'video' : 'audio') },
        };
      case 'STEM_SEPARATION':
        return { kind: 'stems', input, outDir, claimedType, options: { mode: options.mode ?? 'vocals' } };
      default:
        return null;
    }
  }

  /** Sends fine progress to the owner's sockets (twice a second at most) and records each new status. */
  private progressReporter(job: JobDoc<TrackJobPayload>, startedAt: number) {
    let lastSent = 0;
    let lastStatus: TrackStatus | null = null;
    let recording: Promise<unknown> = Promise.resolve();
    const { service, upload } = job.payload;
    const realTimeFactor = this.queries
      .execute<GetEngineSpeed, EngineSpeedDocument | null>(new GetEngineSpeed(service))
      .then((speed) => speed?.realTimeFactor ?? DEFAULT_REAL_TIME_FACTOR[service])
      .catch(() => DEFAULT_REAL_TIME_FACTOR[service]);
    return (event: { progress: number; stage: string }): void => {
      const status = statusForStage(service, event.stage);
      const now = Date.now();
      if (status !== lastStatus) {
        lastStatus = status;
        const context = this.contexts.forSystem(job.userId, job._id);
        recording = recording.then(() =>
          this.tracks
            .execute(
              job.subject,
              { type: 'RecordProgress', jobId: job._id, status, progress: event.progress },
              context,
              { settle: false },
            )
            .catch(() => undefined),
        );
      }
      if (now - lastSent < PROGRESS_INTERVAL_MS) return;
      lastSent = now;
      void realTimeFactor.then((factor) => {
        const estimate = estimateJob({
          startedAt,
          now,
          expectedMs: upload.durationSec * factor * 1000,
          engineProgress: event.progress,
        });
        this.realtime.publish(
          trackStatusMessage(job.userId, {
            trackId: job.subject,
            status,
            progress: estimate.progress,
            remainingMs: estimate.remainingMs,
            estimatedCompletion: new Date(now + estimate.remainingMs).toISOString(),
          }),
        );
      });
    };
  }

  /** Moves the engine's outputs into the blob store under `tracks/{trackId}/`. */
  private async storeOutputs(
    job: JobDoc<TrackJobPayload>,
    result: JobResult,
    workDir: string,
    signal: AbortSignal,
  ): Promise<TrackFiles> {
    const files: TrackFiles = {};
    const put = async (name: string, path: string, contentType: string): Promise<void> => {
      if (signal.aborted) throw new CancelledError();
      const key = `tracks/${job.subject}/${name}`;
      await this.blobs.putFile(key, path, contentType);
      files[name] = key;
    };
    if (result.kind === 'master') {
      await put('master', result.outputs.master44, 'audio/wav');
      await put('master48', result.outputs.master48, 'audio/wav');
      await put('preview', result.outputs.preview, 'audio/mpeg');
      await put('report', result.outputs.report, 'application/json');
    } else if (result.kind === 'enhance') {
      const { isVideo, contentType } = job.payload.upload;
      const preview = await makePreview(result.outputs.enhanced, workDir, isVideo, signal);
      await put('preview', preview.path, preview.contentType);
      await put('master', result.outputs.enhanced, isVideo ? contentType : 'audio/wav');
      await put('report', result.outputs.report, 'application/json');
    } else if (result.kind === 'stems') {
      for (const stem of result.stems) {
        await put(stemFile(stem.name), stem.path, 'audio/wav');
        await put(stemPreviewFile(stem.name), stem.preview, 'audio/mpeg');
      }
      // The original decoded to WAV beside the stems (same rate and length), for the board and the zip.
      await put(ORIGINAL_WAV, result.outputs.original, 'audio/wav');
      const originalPreview = result.outputs.previews.original;
      if (originalPreview) await put('preview', originalPreview, 'audio/mpeg');
      await put('report', result.outputs.report, 'application/json');
    }
    return files;
  }
}

/** Loudness before and after, for the report the client shows. */
function summaries(result: JobResult): { before: LoudnessSummary | null; after: LoudnessSummary | null } {
  if (result.kind !== 'master' && result.kind !== 'enhance') return { before: null, after: null };
  const pick = (side: { integratedLufs: number; truePeakDbtp: number; loudnessRangeLu: number }): LoudnessSummary => ({
    integratedLufs: finite(side.integratedLufs),
    truePeakDbtp: finite(side.truePeakDbtp),
    loudnessRange: finite(side.loudnessRangeLu),
  });
  return { before: pick(result.report.before), after: pick(result.report.after) };
}

/** Silence measures -Infinity: the log stores JSON, so it becomes the floor of the meters. */
function finite(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : -70;
}
