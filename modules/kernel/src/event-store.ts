import { CodedError } from './errors';
import type { KernelErrorCode } from '@kora/contracts';
import type { DomainEvent, EventToAppend, RecordedEvent } from './events';
import type { Notifier } from './notifier';
import { pullSubscription } from './pull-subscription';
import type { BatchHandler, ReadAllOptions, ReadAllResult, SubscribeOptions, Subscription } from './log-reading';

export type { BatchHandler, ReadAllOptions, ReadAllResult, SubscribeOptions, Subscription } from './log-reading';

/**
 * What the writer believes about the stream: `no_stream` (it must not exist), `stream_exists`, `any`, or the
 * revision of its last event. Revisions are zero-based, as in EventStoreDB.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

export interface AppendResult {
  /** Revision of the last event written: pass it as the expected revision of the next append. */
  readonly nextExpectedRevision: number;
  /** Global position of the last event written. */
  readonly position: number;
}

export interface ReadStreamOptions {
  /** First revision to read (inclusive); default 0. */
  readonly fromRevision?: number;
  readonly maxCount?: number;
}

/** Thrown when the expected revision does not match the stream: a conflict (409 on HTTP). */
export class WrongExpectedRevisionError extends CodedError<KernelErrorCode> {
  readonly code = 'EVENTSTORE.WRONG_EXPECTED_REVISION';
  readonly kind = 'conflict';
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamName} was expected at ${String(expected)} but is at ${String(actual)}`, {
      expected,
      actual,
    });
  }
}

/**
 * The event store port. Implementations: the embedded SQLite log (default) and EventStoreDB/KurrentDB.
 * Every acknowledged append is durable; subscribers never see an event before it is.
 */
export abstract class EventStore {
  abstract append<E extends DomainEvent>(
    streamName: string,
    events: readonly EventToAppend<E>[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult>;

  /** The stream's events in order; an empty array when it does not exist. */
  abstract readStream<E extends DomainEvent = DomainEvent>(
    streamName: string,
    options?: ReadStreamOptions,
  ): Promise<RecordedEvent<E>[]>;

  abstract readAll(options: ReadAllOptions): Promise<ReadAllResult>;

  /** Position of the newest event, 0 when the log is empty. */
  abstract headPosition(): Promise<number>;

  /** How many events lie after a position, counting at most `cap` of them. */
  abstract countAfter(position: number, cap: number): Promise<number>;

  /**
   * Fires after every durable append made through this process and, where the store can tell, by other processes.
   * Readers that drained the log wait on it, with `pollIntervalMs` as the upper bound.
   */
  abstract readonly appended: Notifier;
  abstract readonly pollIntervalMs: number;

  /** Catch up from `after`, then deliver new events as they are appended, in order, one batch at a time. */
  subscribe(options: SubscribeOptions, handler: BatchHandler): Subscription {
    return pullSubscription(this, options, handler);
  }

  /** Resolves when the store answers; throws otherwise (health checks). */
  abstract ping(): Promise<void>;

  abstract close(): Promise<void>;

  /** A short name for logs and health: `sqlite` or `eventstoredb`. */
  abstract readonly kind: string;
}
