import type { RecordedEvent } from './events';

export interface ReadAllOptions {
  /** Read events strictly after this global position; 0 reads from the start. */
  readonly after: number;
  readonly maxCount: number;
  /** Only these event types. */
  readonly types?: readonly string[];
  /** Only events whose metadata names this user. */
  readonly userId?: string;
}

export interface ReadAllResult {
  readonly events: RecordedEvent[];
  /**
   * Position up to which the log was scanned: the last event's position when `maxCount` stopped the read,
   * otherwise the head at read time. A checkpoint may safely move to it even when a filter left no events.
   */
  readonly scannedTo: number;
}

export interface Subscription {
  /** Stops delivery and resolves once the handler is no longer running. */
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Deliver events strictly after this position (catch up first, then live). */
  readonly after: number;
  readonly types?: readonly string[];
  readonly batchSize?: number;
  /** Called when the handler throws; delivery pauses and retries the same batch after a delay. */
  readonly onError?: (error: unknown) => void;
  /**
   * Woken before the other subscribers of this process when an append lands (the publisher that pushes events to
   * sockets). Readers are not held up by it: they run in the next turn of the event loop.
   */
  readonly first?: boolean;
}

export type BatchHandler = (events: RecordedEvent[], scannedTo: number) => Promise<void>;
