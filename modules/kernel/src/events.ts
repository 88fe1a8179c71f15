/**
 * The event envelope shared by every stream. An event's `type` is a persisted contract: past tense, never renamed;
 * a changed `data` shape gets a new `schemaVersion` and an upcaster (see `upcasting.ts`).
 */
export interface EventMetadata {
  /** The request or job that started the chain of work. */
  correlationId: string;
  /** The command, message or event that directly caused this event. */
  causationId: string;
  /** The account the event belongs to (routes real-time messages; `system` for platform events). */
  userId: string;
  /** ISO-8601 instant taken from the injected clock when the command was decided. */
  occurredAt: string;
  schemaVersion: number;
}

/** A domain event as deciders produce it: a type and its data, with no storage details. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

/** An event ready to append: the domain event plus its envelope (distributes over event unions). */
export type EventToAppend<E extends DomainEvent = DomainEvent> = E extends DomainEvent
  ? {
      readonly id: string;
      readonly type: E['type'];
      readonly data: E['data'];
      readonly metadata: EventMetadata;
    }
  : never;

/** An event as read back from the store (distributes over event unions, so `switch (event.type)` narrows). */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent
  ? EventToAppend<E> & StoredPosition
  : never;

export interface StoredPosition {
  readonly streamName: string;
  /** Zero-based position inside its stream. */
  readonly revision: number;
  /**
   * Position in the global log: increasing, not necessarily contiguous. Events appended in one call may share it
   * (EventStoreDB's commit position); events of different appends never do, and reads never split such a group.
   * Zero means "before the first event", so a checkpoint of 0 reads the whole log.
   */
  readonly position: number;
}

/** The type union of an event union, for exhaustive handling. */
export type EventType<E extends DomainEvent> = E['type'];

/** Narrows an event union to one member by its type. */
export type EventOf<E extends DomainEvent, T extends E['type']> = Extract<E, { type: T }>;

/** Compile-time exhaustiveness check for `switch` statements over event unions. */
export function assertNever(value: never, message = 'Unexpected value'): never {
  throw new Error(`${message}: ${JSON.stringify(value)}`);
}
