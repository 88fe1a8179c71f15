import { expect } from '@jest/globals';
import type { DomainEvent, EventMetadata, RecordedEvent } from '../events';
import { type AnyProjection, evolveDocument, type Projected, type ProjectionDefinition } from '../projection';
import type { Document } from '../read-store';

export interface ProjectionThen<D extends Document> {
  /** The read model holds this document under `id` (compared without the runner's `_position`). */
  thenDocument(id: string, expected: D | Record<string, unknown>): void;
  /** The read model has no document under `id`: never made, or deleted. */
  thenNoDocument(id: string): void;
  /** The whole read model, ordered by `_id` (compared without `_position`). */
  thenDocuments(expected: readonly (D | Record<string, unknown>)[]): void;
}

/**
 * A projection folded in memory, the way the runner feeds it: only the event types it `handles`, each event sent to
 * the document its own `target` names and through its own `evolve`, and an event at or below the position a document
 * already carries skipped, so a replayed event changes nothing. After emmett's projection unit specs:
 *
 * ```ts
 * const givenEvents = ProjectionSpecification.for(tracksProjection);
 * givenEvents(uploaded, requested).thenDocument('t1', { ...track, status: 'MASTERING' });
 * ```
 */
export const ProjectionSpecification = {
  for<E extends DomainEvent, D extends Document>(
    projection: ProjectionDefinition<E, D>,
  ): (...events: RecordedEvent<E>[]) => ProjectionThen<D> {
    return (...events) => {
      const documents = fold(projection, events);
      const withoutPosition = (doc: Projected<Document>): Document => {
        const { _position: _, ...rest } = doc;
        return rest;
      };
      return {
        thenDocument(id, expected) {
          const doc = documents.get(id);
          expect(doc ? withoutPosition(doc) : null).toEqual(expected);
        },
        thenNoDocument(id) {
          expect(documents.get(id) ?? null).toBeNull();
        },
        thenDocuments(expected) {
          const all = [...documents.values()].map(withoutPosition).sort((a, b) => a._id.localeCompare(b._id));
          expect(all).toEqual(expected);
        },
      };
    };
  },
};

function fold(projection: AnyProjection, events: readonly RecordedEvent[]): Map<string, Projected<Document>> {
  const documents = new Map<string, Projected<Document>>();
  const handles = new Set<string>(projection.handles);
  // The runner compares an event with the position its document had when the batch loaded it, so events sharing a
  // position (one append) all apply; here a batch is each run of distinct events at one position, and an event
  // given again is a replay, which starts a new batch.
  let batch: number | null = null;
  const inBatch = new Set<string>();
  const loadedAt = new Map<string, number>();
  for (const event of events) {
    if (!handles.has(event.type)) continue; // the runner reads only the types a projection handles
    if (event.position !== batch || inBatch.has(event.id)) {
      batch = event.position;
      inBatch.clear();
      loadedAt.clear();
    }
    inBatch.add(event.id);
    const target = projection.target(event);
    if (!target) continue;
    if (!('id' in target)) {
      throw new Error(`${projection.name}: the kit folds documents targeted by id; test a \`where\` target on a store`);
    }
    const current = documents.get(target.id) ?? null;
    if (!loadedAt.has(target.id)) loadedAt.set(target.id, current?._position ?? 0);
    if (loadedAt.get(target.id)! >= event.position) continue;
    const next = evolveDocument(projection, target.id, current, event);
    if (next) documents.set(target.id, next);
    else documents.delete(target.id);
  }
  return documents;
}

export interface EventLogOptions {
  /** The envelope's `userId` unless an event says otherwise. */
  readonly userId?: string;
  /** The envelope's `occurredAt` unless an event says otherwise. */
  readonly occurredAt?: string;
}

/**
 * Events as the store records them, for projection specs: consecutive revisions in each stream, one increasing
 * position per event in the log, and an envelope. Record an event once and give it twice to replay it.
 *
 * ```ts
 * const log = eventLog<TrackEvent>({ userId: 'u1', occurredAt: '2026-03-01T10:00:00.000Z' });
 * const uploaded = log.record(trackStream('t1'), { type: 'TrackUploaded', data });
 * ```
 */
export function eventLog<E extends DomainEvent = DomainEvent>(options: EventLogOptions = {}) {
  let position = 0;
  const revisions = new Map<string, number>();
  return {
    record(streamName: string, event: E, metadata: Partial<EventMetadata> = {}): RecordedEvent<E> {
      position += 1;
      const revision = (revisions.get(streamName) ?? -1) + 1;
      revisions.set(streamName, revision);
      return {
        id: `event-${position}`,
        type: event.type,
        data: event.data,
        streamName,
        revision,
        position,
        metadata: {
          correlationId: `correlation-${position}`,
          causationId: `causation-${position}`,
          userId: options.userId ?? 'user-1',
          occurredAt: options.occurredAt ?? '2026-03-01T10:00:00.000Z',
          schemaVersion: 1,
          ...metadata,
        },
      } as unknown as RecordedEvent<E>;
    },
  };
}
