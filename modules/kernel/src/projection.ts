import type { DomainEvent, RecordedEvent } from './events';
import type { Document, Filter, IndexSpec } from './read-store';

/** Which documents an event changes: one by id, every document matching a filter, or none. */
export type ProjectionTarget = { readonly id: string } | { readonly where: Filter } | null;

/** Every projected document carries the global position of the last event applied to it (idempotency guard). */
export type Projected<D extends Document> = D & { _position: number };

/**
 * A read model: the events it handles and a pure `evolve`. The runner owns checkpoints, batching, transactions and
 * idempotency; a projection only says what a document becomes when an event arrives.
 */
export interface ProjectionDefinition<E extends DomainEvent = DomainEvent, D extends Document = Document> {
  readonly name: string;
  /** Bump when `evolve` changes meaning: the runner rebuilds the read model at the next start. */
  readonly version: number;
  readonly collection: string;
  readonly indexes?: readonly IndexSpec[];
  readonly handles: readonly E['type'][];
  target(event: RecordedEvent<E>): ProjectionTarget;
  /** Pure: the document after the event, or null to delete it. Must keep `_id` equal to the target id. */
  evolve(current: Projected<D> | null, event: RecordedEvent<E>): D | null;
}

/** Identity helper that keeps the event and document types of a projection definition. */
export function defineProjection<E extends DomainEvent, D extends Document>(
  definition: ProjectionDefinition<E, D>,
): ProjectionDefinition<E, D> {
  return definition;
}

/** A projection with its types erased, as the runner holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProjection = ProjectionDefinition<any, any>;

/**
 * One event applied to one document, as the runner applies it (and the testing kit after it): the projection's
 * `evolve`, which must keep `_id`, and the event's position stamped on the result, which later batches compare with
 * to skip an event applied before.
 */
export function evolveDocument(
  definition: AnyProjection,
  id: string,
  current: Projected<Document> | null,
  event: RecordedEvent,
): Projected<Document> | null {
  const next = definition.evolve(current, event) as Document | null;
  if (next && next._id !== id) {
    throw new Error(`Projection ${definition.name} changed _id ${id} to ${next._id} on ${event.type}`);
  }
  return next ? { ...next, _position: event.position } : null;
}
