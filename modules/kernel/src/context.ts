import type { DomainEvent, EventToAppend } from './events';

/** Injection tokens of the clock and the id source (provided by the backend, replaced in tests). */
export const CLOCK = Symbol.for('kora.clock');
export const IDS = Symbol.for('kora.ids');

/** The clock and id source, injected so domain code stays deterministic under test. */
export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  newId(): string;
}

/** Who asked and why: the envelope facts every appended event carries. */
export interface CommandContext {
  readonly userId: string;
  readonly correlationId: string;
  /** Id of the message that caused the command (the request id, or the event a saga reacted to). */
  readonly causationId: string;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Wraps domain events in their envelope. Every event of one decision shares the same `occurredAt`. */
export function toAppend<E extends DomainEvent>(
  events: readonly E[],
  context: CommandContext,
  schemaVersion = 1,
): EventToAppend<E>[] {
  const occurredAt = context.clock.now().toISOString();
  return events.map(
    (event) =>
      ({
        id: context.ids.newId(),
        type: event.type,
        data: event.data,
        metadata: {
          correlationId: context.correlationId,
          causationId: context.causationId,
          userId: context.userId,
          occurredAt,
          schemaVersion,
        },
      }) as EventToAppend<E>,
  );
}
