import type { DomainEvent, RecordedEvent } from '../events';

/** A job as a request processor enqueues it (the job queue's `NewJob`, the fields a spec reads). */
export interface EnqueuedJob {
  _id: string;
  kind: string;
  subject: string;
  userId: string;
  payload: unknown;
  enqueuedAt: string;
}

/**
 * Stand-ins for what a job kind's request processor (`jobRequestsProcessor`) meets, recording what it does: a job
 * queue that keeps what is enqueued and removed, an event store holding `stored` (or refusing to be read, when null:
 * the request must carry all the job needs), a processor registry that keeps the processor, a job runner that takes
 * the handler. Give them (`ports`) to the job class in place of the ports, call its `onModuleInit`, then `handle`
 * events.
 */
export function jobRequestsKit<E extends DomainEvent>(stored: RecordedEvent<E>[] | null) {
  const enqueued: EnqueuedJob[] = [];
  const removed: string[] = [];
  let processor: { handle(event: RecordedEvent): Promise<void> } | undefined;
  const queue = {
    enqueue: async (job: EnqueuedJob) => void enqueued.push(job),
    removeFor: async (subject: string) => void removed.push(subject),
  };
  const registry = { register: (registered: typeof processor) => void (processor = registered) };
  const events = {
    readStream: async () => {
      if (stored === null) throw new Error('the reaction read the stream');
      return stored;
    },
  };
  const runner = { register: () => undefined };
  return {
    enqueued,
    removed,
    /** The stand-ins in the order job classes take them first: job queue, processor registry, event store, runner. */
    ports: [queue, registry, events, runner] as [never, never, never, never],
    handle: (event: RecordedEvent<E>) => processor!.handle(event as RecordedEvent),
  };
}
