import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CancelledError, EngineError, type JobRequest, type JobResult, runJob } from '@kora/audio-engine';
import { BlobStore, EventStore, sleep, streamId, type Subscription } from '@kora/kernel';
import { CommandContexts, RealtimeRegistry } from '@kora/kernel/nest';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { LoudnessSummary, TrackFiles, TrackStatus } from '../../contracts/events';
import { type EngineSpeedDocument, GetEngineSpeed } from '../../contracts/queries';
import { StaleJobError, TrackNotFoundError } from '../../domain/errors';
import { TrackCommands } from '../track-commands';
import { AUDIO_OPTIONS, type AudioOptions } from '../audio-options';
import { type JobDoc, JobQueue } from './job-queue';
import { makePreview } from './preview';
import { DEFAULT_REAL_TIME_FACTOR, FAILURE_MESSAGES, statusForStage } from './stage-status';

const IDLE_POLL_MS = 500;
const PROGRESS_INTERVAL_MS = 500;

interface Running {
  job: JobDoc;
  controller: AbortController;
  /** Why the job was stopped: the user cancelled it, the lease was lost, or this process is stopping. */
  stoppedBy: 'cancel' | 'lease' | 'shutdown' | null;
}

/**
 * Runs processing jobs: claims them from the queue (up to `workers` at once), runs the engine in worker threads,
 * stores the results in the blob store and records each step on the track. Renews its lease while a job runs;
 * stops a job within a second when the track's processing is cancelled or the track deleted, wherever the request
 * was made (it follows the log for those events).
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  readonly workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly running = new Map<string, Running>();
  private readonly finished = new Set<Promise<void>>();
  private stopping = new AbortController();
  private loop: Promise<void> | null = null;
  private cancellations: Subscription | null = null;

  constructor(
    private readonly queue: JobQueue,
    private readonly tracks: TrackCommands,
    private readonly blobs: BlobStore,
    private readonly events: EventStore,
    private readonly contexts: CommandContexts,
    private readonly realtime: RealtimeRegistry,
    private readonly queries: QueryBus,
    @Inject(AUDIO_OPTIONS) private readonly options: AudioOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.workers <= 0) return;
    await this.start();
  }

  async start(): Promise<void> {
    this.stopping = new AbortController();
    this.cancellations = this.events.subscribe(
      { after: await this.events.headPosition(), types: ['ProcessingCancelled', 'TrackDeleted'] },
      async (events) => {
        for (const event of events) this.stopFor(streamId(event.streamName), 'cancel');
      },
    );
    this.loop = this.claimLoop();
    this.logger.log(`worker ${this.workerId} runs up to ${this.options.workers} job(s) at once`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    for (const trackId of this.running.keys()) this.stopFor(trackId, 'shutdown');
    await this.loop;
    await Promise.all(this.finished);
    await this.cancellations?.stop();
  }

  /** Jobs running in this process (tests, metrics). */
  get active(): number {
    return this.running.size;
  }

  private stopFor(trackId: string, reason: Running['stoppedBy']): void {
    const running = this.running.get(trackId);
    if (!running || running.stoppedBy) return;
    running.stoppedBy = reason;
    running.controller.abort();
  }

  private async claimLoop(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      try {
        if (this.running.size < this.options.workers) {
          const job = await this.queue.claim(this.workerId);
          if (job) {
            const done = this.run(job).finally(() => this.finished.delete(done));
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
    const trackId = job._id;
    const context = this.contexts.forSystem(job.userId, job.jobId);
    const running: Running = { job, controller: new AbortController(), stoppedBy: null };
    this.running.set(trackId, running);
    const heartbeat = setInterval(() => {
      this.queue.renew(job, this.workerId).then(
        (held) => !held && this.stopFor(trackId, 'lease'),
        () => undefined,
      );
    }, this.queue.leaseMs / 3);
    heartbeat.unref();
    const workDir = await mkdtemp(join(tmpdir(), 'kora-job-'));
    let finished = false;
    try {
      const started = await this.tracks.execute(
        trackId,
        { type: 'StartProcessing', jobId: job.jobId, workerId: this.workerId },
        context,
        { settle: false },
      );
      if (started.events.some((event) => event.type === 'ProcessingFailed')) {
        finished = true;
        return;
      }
      const startedAt = Date.now();
      if (!this.request(job, workDir, '')) {
        await this.fail(job, 'PROCESSING.UNSUPPORTED_SERVICE');
        finished = true;
        return;
      }
      const result = await this.blobs.withLocalFile(job.upload.originalKey, (input) =>
        runJob(this.request(job, workDir, input)!, {
          signal: running.controller.signal,
          onProgress: this.progressReporter(job, startedAt),
        }),
      );
      const files = await this.storeOutputs(job, result, workDir, running.controller.signal);
      await this.tracks.execute(
        trackId,
        {
          type: 'CompleteProcessing',
          jobId: job.jobId,
          files,
          stems: null,
          processingSeconds: (Date.now() - startedAt) / 1000,
          durationSec: job.upload.durationSec,
          ...summaries(result),
        },
        context,
        { settle: false },
      );
      finished = true;
    } catch (error) {
      if (error instanceof StaleJobError || error instanceof TrackNotFoundError) {
        finished = true; // cancelled, deleted or finished elsewhere
      } else if (error instanceof CancelledError || running.stoppedBy) {
        finished = running.stoppedBy === 'cancel';
      } else {
        const code = error instanceof EngineError ? error.code : 'PROCESSING.FAILED';
        if (!(error instanceof EngineError))
          this.logger.error(`job ${job.jobId} failed: ${(error as Error)?.stack ?? String(error)}`);
        await this.fail(job, code).catch(() => undefined);
        finished = true;
      }
    } finally {
      clearInterval(heartbeat);
      this.running.delete(trackId);
      await rm(workDir, { recursive: true, force: true });
      if (finished) await this.queue.done(job).catch(() => undefined);
      else if (running.stoppedBy === 'shutdown') await this.queue.release(job, this.workerId).catch(() => undefined);
    }
  }

  private async fail(job: JobDoc, code: string): Promise<void> {
    await this.tracks.execute(
      job._id,
      {
        type: 'FailProcessing',
        jobId: job.jobId,
        code,
        message: FAILURE_MESSAGES[code] ?? 'Processing failed. Please try again.',
      },
      this.contexts.forSystem(job.userId, job.jobId),
      { settle: false },
    );
  }

  /** The engine request for a job, or null when the engine cannot do that service yet. */
  private request(job: JobDoc, outDir: string, input: string): JobRequest | null {
    const claimedType = job.upload.format;
    switch (job.service) {
      case 'AI_MASTERING':
        return { kind: 'master', input, outDir, claimedType, options: {} };
      case 'AUDIO_ENHANCEMENT':
        return {
          kind: 'enhance',
          input,
          outDir,
          claimedType,
          options: { preset: job.options.preset ?? (job.upload.isVideo ? 'video' : 'audio') },
        };
      default:
        return null;
    }
  }

  /** Sends fine progress to the owner's sockets (twice a second at most) and records each new status. */
  private progressReporter(job: JobDoc, startedAt: number) {
    let lastSent = 0;
    let lastStatus: TrackStatus | null = null;
    let recording: Promise<unknown> = Promise.resolve();
    const realTimeFactor = this.realTimeFactor(job);
    return (event: { progress: number; stage: string }): void => {
      const status = statusForStage(job.service, event.stage);
      const now = Date.now();
      if (status !== lastStatus) {
        lastStatus = status;
        const context = this.contexts.forSystem(job.userId, job.jobId);
        recording = recording.then(() =>
          this.tracks
            .execute(job._id, { type: 'RecordProgress', jobId: job.jobId, status, progress: event.progress }, context, {
              settle: false,
            })
            .catch(() => undefined),
        );
      }
      if (now - lastSent < PROGRESS_INTERVAL_MS) return;
      lastSent = now;
      void realTimeFactor.then((factor) => {
        const estimated = startedAt + job.upload.durationSec * factor * 1000;
        this.realtime.publish({
          userId: job.userId,
          channel: 'track.status',
          payload: {
            trackId: job._id,
            status,
            progress: event.progress,
            estimatedCompletion: new Date(Math.max(estimated, now)).toISOString(),
          },
        });
      });
    };
  }

  private async realTimeFactor(job: JobDoc): Promise<number> {
    const measured = await this.queries
      .execute<GetEngineSpeed, EngineSpeedDocument | null>(new GetEngineSpeed(job.service))
      .catch(() => null);
    return measured?.realTimeFactor ?? DEFAULT_REAL_TIME_FACTOR[job.service];
  }

  /** Moves the engine's outputs into the blob store under `tracks/{trackId}/`. */
  private async storeOutputs(
    job: JobDoc,
    result: JobResult,
    workDir: string,
    signal: AbortSignal,
  ): Promise<TrackFiles> {
    const base = `tracks/${job._id}`;
    const files: TrackFiles = {};
    const put = async (name: string, path: string, contentType: string): Promise<void> => {
      if (signal.aborted) throw new CancelledError();
      const key = `${base}/${name}`;
      await this.blobs.putFile(key, path, contentType);
      files[name] = key;
    };
    if (result.kind === 'master') {
      await put('master', result.outputs.master44, 'audio/wav');
      await put('master48', result.outputs.master48, 'audio/wav');
      await put('preview', result.outputs.preview, 'audio/mpeg');
      await put('report', result.outputs.report, 'application/json');
    } else if (result.kind === 'enhance') {
      const preview = await makePreview(result.outputs.enhanced, workDir, job.upload.isVideo, signal);
      const enhancedType = job.upload.isVideo ? job.upload.contentType : 'audio/wav';
      await put('preview', preview.path, preview.contentType);
      await put('master', result.outputs.enhanced, enhancedType);
      await put('report', result.outputs.report, 'application/json');
    }
    return files;
  }
}

/** Loudness before and after, for the report the client shows. */
function summaries(result: JobResult): { before: LoudnessSummary | null; after: LoudnessSummary | null } {
  if (result.kind === 'analyze') return { before: null, after: null };
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
