import type { MixStatusMessage } from '@kora/contracts';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CancelledError, EngineError, type MixResult, type MusicalStyle, runJob } from '@kora/audio-engine';
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
import type { MixedSession, MixEvent, MixRequested, MixTrackFile, MixTrackSettings } from '../../contracts/events';
import { sessionDecider } from '../../domain/session';
import { MixCommands } from '../mix-commands';

export const MIX_JOB = 'mix';

interface MixJobPayload {
  style: string;
  sampleRate: 44100 | 48000;
  tracks: Array<MixTrackFile & { settings: MixTrackSettings }>;
}

/** Runs a path-taking function with every blob available as a local file. */
async function withLocalFiles<R>(
  blobs: BlobStore,
  keys: readonly string[],
  work: (paths: string[]) => Promise<R>,
  paths: string[] = [],
): Promise<R> {
  if (paths.length === keys.length) return work(paths);
  return blobs.withLocalFile(keys[paths.length]!, (path) => withLocalFiles(blobs, keys, work, [...paths, path]));
}

/**
 * Mixing jobs: enqueued when a mix is requested (with the session's tracks and settings the request carries), run by
 * the engine's mixer in a worker thread; the results go under `mixes/{sessionId}/result/`.
 */
@Injectable()
export class MixJobs implements JobHandler, JobRequests, OnModuleInit {
  readonly kind = MIX_JOB;
  readonly processor = 'mix-jobs';
  readonly requestedBy = 'MixRequested';
  readonly finishedBy = ['MixReady', 'MixFailed', 'MixCancelled'];
  readonly cancelledBy = ['MixCancelled'];

  constructor(
    private readonly queue: JobQueue,
    private readonly registry: ProcessorRegistry,
    private readonly events: EventStore,
    private readonly runner: JobRunner,
    private readonly mixes: MixCommands,
    private readonly blobs: BlobStore,
    private readonly contexts: CommandContexts,
    private readonly realtime: RealtimeRegistry,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
    this.registry.register(jobRequestsProcessor(this.queue, this));
  }

  subjectOf(event: RecordedEvent): string {
    return streamId(event.streamName);
  }

  async jobFor(recorded: RecordedEvent): Promise<NewJob | null> {
    const event = recorded as RecordedEvent<MixRequested>;
    const session = event.data.session ?? (await this.sessionOf(event));
    if (!session) return null;
    return {
      _id: event.data.jobId,
      kind: MIX_JOB,
      subject: streamId(event.streamName),
      userId: event.metadata.userId,
      payload: {
        style: session.mixingStyle,
        sampleRate: session.sampleRate,
        tracks: session.tracks,
      } satisfies MixJobPayload,
      enqueuedAt: event.metadata.occurredAt,
    };
  }

  /**
   * The session of a request recorded before requests carried it: folded from its own stream up to the request (the
   * read model may lag behind); null when that stream no longer waits for this job.
   */
  private async sessionOf(event: RecordedEvent<MixRequested>): Promise<MixedSession | null> {
    const history = await this.events.readStream<MixEvent>(event.streamName, { maxCount: event.revision + 1 });
    const session = history.reduce(sessionDecider.evolve, sessionDecider.initialState());
    if (!session.exists || session.jobId !== event.data.jobId) return null;
    return { mixingStyle: session.mixingStyle, sampleRate: session.sampleRate, tracks: [...session.tracks.values()] };
  }

  async run(doc: JobDoc, { signal, workDir, workerId, niceness }: JobContext): Promise<void> {
    const job = doc as JobDoc<MixJobPayload>;
    const sessionId = job.subject;
    const context = this.contexts.forSystem(job.userId, job._id);
    try {
      const started = await this.mixes.execute(sessionId, { type: 'StartMix', jobId: job._id, workerId }, context, {
        settle: false,
      });
      if (started.events.some((event) => event.type === 'MixFailed')) return;
      const startedAt = Date.now();
      let lastSent = 0;
      const result = (await withLocalFiles(
        this.blobs,
        job.payload.tracks.map((track) => track.fileKey),
        (paths) =>
          runJob(
            {
              kind: 'mix',
              outDir: workDir,
              inputs: job.payload.tracks.map((track, index) => ({
                path: paths[index]!,
                name: track.filename,
                settings: track.settings as never,
              })),
              options: { style: job.payload.style as MusicalStyle, sampleRate: job.payload.sampleRate },
            },
            {
              signal,
              niceness,
              onProgress: ({ progress }) => {
                if (Date.now() - lastSent < 500) return;
                lastSent = Date.now();
                this.realtime.publish({
                  userId: job.userId,
                  channel: 'mix.status',
                  payload: { sessionId, status: 'PROCESSING', error: null, progress } satisfies MixStatusMessage,
                });
              },
            },
          ),
      )) as MixResult;
      const files: Record<string, string> = {};
      const put = async (name: string, path: string, contentType: string): Promise<void> => {
        if (signal.aborted) throw new CancelledError();
        files[name] = `mixes/${sessionId}/result/${name}`;
        await this.blobs.putFile(files[name], path, contentType);
      };
      await put('mix', result.outputs.mix, 'audio/wav');
      await put('preview', result.outputs.preview, 'audio/mpeg');
      await put('report', result.outputs.report, 'application/json');
      for (const track of job.payload.tracks) {
        const processed = result.outputs.tracks[track.filename];
        if (processed) await put(`track-${track.trackId}`, processed, 'audio/wav');
      }
      await this.mixes.execute(
        sessionId,
        {
          type: 'CompleteMix',
          jobId: job._id,
          files,
          processingSeconds: (Date.now() - startedAt) / 1000,
          durationSec: result.durationSec,
        },
        context,
        { settle: false },
      );
    } catch (error) {
      if (
        (error as { code?: string }).code === 'MIXING.STALE_JOB' ||
        (error as { code?: string }).code === 'MIXING.SESSION_NOT_FOUND'
      )
        return;
      if (error instanceof CancelledError || signal.aborted) throw error;
      const code = error instanceof EngineError ? error.code : 'PROCESSING.FAILED';
      await this.mixes
        .execute(
          sessionId,
          { type: 'FailMix', jobId: job._id, code, message: 'The mix could not be made. Please try again.' },
          context,
          { settle: false },
        )
        .catch(() => undefined);
      if (!(error instanceof EngineError)) throw error;
    }
  }
}
