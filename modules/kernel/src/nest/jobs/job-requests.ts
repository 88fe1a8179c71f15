import type { RecordedEvent } from '../../events';
import type { Processor } from '../../processor';
import type { JobQueue, NewJob } from './job-queue';

/** How a kind of job follows the log: the event that requests one, the events that end it, the job a request makes. */
export interface JobRequests {
  /** The name of the processor that enqueues the jobs (it keys the processor's checkpoint: never rename it). */
  readonly processor: string;
  readonly requestedBy: string;
  /** Outcomes: the subject's jobs that no worker has started are dropped. */
  readonly finishedBy: readonly string[];
  subjectOf(event: RecordedEvent): string;
  /** The job a request enqueues, from the request event; null when it has none to run. */
  jobFor(event: RecordedEvent): Promise<NewJob | null>;
}

/**
 * The processor that keeps the job queue in step with the log for one kind of job: a request enqueues its job (at
 * least once: the same id enqueued twice gives one job), an outcome removes the subject's jobs.
 */
export function jobRequestsProcessor(queue: JobQueue, requests: JobRequests): Processor {
  return {
    name: requests.processor,
    handles: [requests.requestedBy, ...requests.finishedBy],
    handle: async (event) => {
      if (event.type !== requests.requestedBy) {
        await queue.removeFor(requests.subjectOf(event));
        return;
      }
      const job = await requests.jobFor(event);
      if (job) await queue.enqueue(job);
    },
  };
}
