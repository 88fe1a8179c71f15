import type { EventStore } from './event-store';
import type { DomainEvent, RecordedEvent } from './events';
import { sleep } from './notifier';
import type { ReadStore } from './read-store';

/**
 * A reaction to events that must happen once the event is durable and survive restarts: send a notification,
 * delete files, provision demo tracks. Unlike a projection it has side effects, so delivery is at least once and
 * `handle` must be idempotent (commands with deterministic ids, deletes that tolerate absence, causation ids).
 */
export interface Processor<E extends DomainEvent = DomainEvent> {
  readonly name: string;
  readonly handles: readonly E['type'][];
  handle(event: RecordedEvent<E>): Promise<void>;
}

export interface ProcessorLogger {
  error(context: Record<string, unknown>, message: string): void;
}

/** Prefix of processor checkpoints, so they never collide with projections'. */
const PREFIX = 'processor:';
const RETRY_MS = 2_000;
const LAZY_CHECKPOINT_GAP = 10_000;

/**
 * Feeds processors from their checkpoints (stored in the read store), one event at a time, moving the checkpoint
 * after each handled event. A failing event is retried until it succeeds: later events wait, order is kept.
 */
export class ProcessorRunner {
  private abort = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly processors: readonly Processor[],
    private readonly logger?: ProcessorLogger,
  ) {}

  async start(): Promise<void> {
    this.abort = new AbortController();
    for (const processor of this.processors) {
      // A new processor starts at the head: it reacts to what happens from now on, not to the whole history.
      if (!(await this.store.getCheckpoint(PREFIX + processor.name))) {
        await this.store.setCheckpoint(PREFIX + processor.name, {
          position: await this.events.headPosition(),
          version: 1,
        });
      }
      this.loops.push(this.run(processor));
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all(this.loops.splice(0));
  }

  /** Handles everything up to the current head (tests). */
  async drain(): Promise<void> {
    const head = await this.events.headPosition();
    for (const processor of this.processors) {
      while (((await this.store.getCheckpoint(PREFIX + processor.name))?.position ?? 0) < head) {
        if (!(await this.step(processor))) break;
      }
    }
  }

  private async run(processor: Processor): Promise<void> {
    const signal = this.abort.signal;
    const scanned = { position: 0 };
    while (!signal.aborted) {
      const seen = this.events.appended.version;
      try {
        const more = await this.step(processor, scanned);
        if (!more) await this.events.appended.wait(seen, this.events.pollIntervalMs, signal);
      } catch (error) {
        if (signal.aborted) break;
        this.logger?.error({ processor: processor.name, err: error }, 'processor failed; retrying');
        await sleep(RETRY_MS, signal);
      }
    }
  }

  /**
   * Handles the next batch; returns false when there was nothing to do. Checkpoints commit relaxed (atomic, not
   * fsynced): a power cut may take back the last ones, and the events after them are handled again, which delivery
   * at least once already allows. With `scanned` (the live loop), a batch holding nothing for this processor moves
   * only that in-memory position; the stored checkpoint follows with the next handled event, or once it lags
   * LAZY_CHECKPOINT_GAP positions behind.
   */
  private async step(processor: Processor, scanned?: { position: number }): Promise<boolean> {
    const name = PREFIX + processor.name;
    const stored = (await this.store.getCheckpoint(name))?.position ?? 0;
    const from = Math.max(stored, scanned?.position ?? 0);
    const { events, scannedTo } = await this.events.readAll({ after: from, maxCount: 100, types: processor.handles });
    if (scannedTo <= from) return false;
    for (const [index, event] of events.entries()) {
      if (this.abort.signal.aborted) return false;
      await processor.handle(event);
      if (events[index + 1]?.position !== event.position) await this.checkpoint(name, event.position);
    }
    if (!scanned || events.length > 0 || scannedTo - stored >= LAZY_CHECKPOINT_GAP) {
      await this.checkpoint(name, scannedTo);
    }
    if (scanned) scanned.position = scannedTo;
    return true;
  }

  private checkpoint(name: string, position: number): Promise<void> {
    return this.store.transaction((tx) => tx.setCheckpoint(name, { position, version: 1 }), {
      durability: 'relaxed',
    });
  }
}
