import type { DomainEvent, RecordedEvent } from './events';

/**
 * The class of a durable event of one type, for the in-process event bus: handlers subscribe with
 * `@EventsHandler(durable('TrackUploaded'))` and sagas filter with `ofType(durable('TrackUploaded'))`. Instances
 * are only ever created from events read back from the store, so whatever reaches a handler has been appended.
 */
export interface DurableEventClass<E extends DomainEvent = DomainEvent> {
  new (recorded: RecordedEvent<E>): DurableEvent<E>;
  readonly eventType: E['type'];
}

export type DurableEvent<E extends DomainEvent = DomainEvent> = RecordedEvent<E>;

const classes = new Map<string, DurableEventClass>();

export function durable<E extends DomainEvent>(type: E['type']): DurableEventClass<E> {
  let cls = classes.get(type);
  if (!cls) {
    cls = class {
      static readonly eventType = type;
      constructor(recorded: RecordedEvent) {
        Object.assign(this, recorded);
      }
    } as unknown as DurableEventClass;
    Object.defineProperty(cls, 'name', { value: `Durable${type}` });
    classes.set(type, cls);
  }
  return cls as unknown as DurableEventClass<E>;
}

/** Wraps a recorded event in its durable class (called only by the bus publisher, after the append). */
export function toDurable<E extends DomainEvent>(recorded: RecordedEvent<E>): DurableEvent<E> {
  return new (durable<E>(recorded.type))(recorded);
}
