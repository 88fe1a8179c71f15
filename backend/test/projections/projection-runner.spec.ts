import { type Document, type EventStore, ProjectionRunner, type RecordedEvent } from '@kora/kernel';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type LibraryItem, libraryHistory, libraryProjection } from '../support/sample-projection';
import { type EmbeddedStores, embeddedStores } from '../support/stores';
import { testEvent } from '../support/temp';

async function appendHistory(store: EventStore, history: ReturnType<typeof libraryHistory>): Promise<void> {
  for (const [stream, event] of history) await store.append(`lib-${stream}`, [event], 'any');
}

/** The read model computed independently: every event folded in order with the projection's own evolve. */
function expectedModel(events: RecordedEvent[]): Map<string, Omit<LibraryItem, never>> {
  const docs = new Map<string, LibraryItem & { _position: number }>();
  for (const event of events) {
    const target = libraryProjection.target(event as never);
    if (!target) continue;
    const ids =
      'id' in target
        ? [target.id]
        : [...docs.values()]
            .filter((d) => d.ownerId === (target.where as { ownerId: string }).ownerId)
            .map((d) => d._id);
    for (const id of ids) {
      const next = libraryProjection.evolve(docs.get(id) ?? null, event as never);
      if (next) docs.set(id, { ...next, _position: event.position });
      else docs.delete(id);
    }
  }
  return docs;
}

async function readModel(stores: EmbeddedStores, collection = 'library_items'): Promise<Document[]> {
  return stores.reads.collection(collection).find({}, { sort: { _id: 1 } });
}

async function allEvents(store: EventStore): Promise<RecordedEvent[]> {
  return (await store.readAll({ after: 0, maxCount: 1_000_000 })).events;
}

describe('ProjectionRunner', () => {
  let stores: EmbeddedStores;
  beforeEach(() => {
    stores = embeddedStores();
  });
  afterEach(() => stores.close());

  it('builds the read model that folding every event in order gives', async () => {
    await appendHistory(stores.events, libraryHistory(1_500));
    const runner = new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 64 });
    await runner.catchUp('library-items');
    const expected = [...expectedModel(await allEvents(stores.events)).values()].sort((a, b) =>
      a._id < b._id ? -1 : 1,
    );
    expect(expected.length).toBeGreaterThan(20);
    expect(await readModel(stores)).toEqual(expected);
  });

  it('produces the same documents when fed the same events twice', async () => {
    await appendHistory(stores.events, libraryHistory(800));
    const runner = new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 50 });
    await runner.catchUp('library-items');
    const once = await readModel(stores);
    expect(once.some((doc) => (doc as unknown as LibraryItem).plays > 0)).toBe(true);

    // Move the checkpoint back to the middle of the log, as a crash between a document write and its checkpoint
    // would on a store without transactions: the second half is delivered again to documents that already have it.
    const head = await stores.events.headPosition();
    await stores.reads.setCheckpoint('library-items', { position: Math.floor(head / 2), version: 1 });
    await runner.catchUp('library-items');
    expect(await readModel(stores)).toEqual(once);
  });

  it('lets two runners share a projection without applying any batch twice', async () => {
    await appendHistory(stores.events, libraryHistory(1_200));
    const a = new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 40 });
    const b = new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 40 });
    await Promise.all([a.catchUp('library-items'), b.catchUp('library-items'), a.catchUp('library-items')]);
    const expected = [...expectedModel(await allEvents(stores.events)).values()].sort((x, y) =>
      x._id < y._id ? -1 : 1,
    );
    expect(await readModel(stores)).toEqual(expected);
  });

  it('rebuilds from zero exactly the read model that was maintained live', async () => {
    const runner = new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 25 });
    await runner.start();
    try {
      const history = libraryHistory(1_000);
      for (let i = 0; i < history.length; i += 100) await appendHistory(stores.events, history.slice(i, i + 100));
      expect(await runner.waitFor(await stores.events.headPosition(), 10_000)).toBe(true);
      const live = await readModel(stores);

      const progress: number[] = [];
      const result = await runner.rebuild('library-items', (p) => progress.push(p.position));
      expect(await readModel(stores)).toEqual(live);
      expect(result.documents).toBe(live.length);
      expect(result.applied).toBe(1_000);
      expect(progress.at(-1)).toBe(await stores.events.headPosition());
      expect(await stores.reads.collection('library_items__rebuild').count()).toBe(0);

      // The live runner carries on from the rebuilt checkpoint.
      await stores.events.append(
        'lib-late',
        [testEvent('ItemAdded', { itemId: 'late', ownerId: 'o', title: 'Late' })],
        'any',
      );
      expect(await runner.waitFor(await stores.events.headPosition(), 5_000)).toBe(true);
      expect(await stores.reads.collection('library_items').findById('late')).toMatchObject({ title: 'Late' });
    } finally {
      await runner.stop();
    }
  });

  it('swaps a rebuild in only once it has caught up with a live runner that kept going', async () => {
    await appendHistory(stores.events, libraryHistory(600));
    const live = new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 30 });
    await live.start();
    const rebuilder = new ProjectionRunner(stores.events, stores.reads, [libraryProjection], { batchSize: 30 });
    try {
      const extra = libraryHistory(300, 20, 3, 99);
      const [result] = await Promise.all([rebuilder.rebuild('library-items'), appendHistory(stores.events, extra)]);
      expect(result.position).toBeGreaterThan(0);
      expect(await live.waitFor(await stores.events.headPosition(), 10_000)).toBe(true);
      const expected = [...expectedModel(await allEvents(stores.events)).values()].sort((x, y) =>
        x._id < y._id ? -1 : 1,
      );
      expect(await readModel(stores)).toEqual(expected);
    } finally {
      await live.stop();
    }
  });

  it('rebuilds at start when the projection version changed, and reports status and lag', async () => {
    await appendHistory(stores.events, libraryHistory(300));
    const v1 = new ProjectionRunner(stores.events, stores.reads, [libraryProjection]);
    await v1.catchUp('library-items');
    await appendHistory(stores.events, libraryHistory(50, 10, 2, 3));
    const [status] = await v1.status();
    expect(status).toMatchObject({ name: 'library-items', version: 1, storedVersion: 1, lag: 50, running: false });

    const renamed = {
      ...libraryProjection,
      version: 2,
      evolve: (c: never, e: never) => {
        const next = libraryProjection.evolve(c, e);
        return next && { ...next, title: next.title.toUpperCase() };
      },
    };
    const v2 = new ProjectionRunner(stores.events, stores.reads, [renamed]);
    await v2.start();
    try {
      expect(await v2.waitFor(await stores.events.headPosition(), 10_000)).toBe(true);
      const docs = (await readModel(stores)) as unknown as LibraryItem[];
      expect(docs.length).toBeGreaterThan(0);
      expect(docs.every((doc) => doc.title === doc.title.toUpperCase())).toBe(true);
      const [after] = await v2.status();
      expect(after).toMatchObject({ version: 2, storedVersion: 2, lag: 0, running: true });
    } finally {
      await v2.stop();
    }
  });
  it('keeps past events it has no handler for in memory, storing the checkpoint with its next applied batch', async () => {
    const runner = new ProjectionRunner(stores.events, stores.reads, [libraryProjection]);
    await runner.start();
    try {
      await appendHistory(stores.events, libraryHistory(20));
      expect(await runner.waitFor(await stores.events.headPosition(), 5_000)).toBe(true);
      const applied = (await stores.reads.getCheckpoint('library-items'))!.position;

      // Events of other modules: read, not committed for (no write for what changes nothing), yet waited for.
      for (let i = 0; i < 30; i += 1) await stores.events.append(`other-${i}`, [testEvent('SomethingElse')], 'any');
      const otherHead = await stores.events.headPosition();
      expect(await runner.waitFor(otherHead, 5_000)).toBe(true);
      expect((await stores.reads.getCheckpoint('library-items'))!.position).toBe(applied);
      expect((await runner.status())[0]).toMatchObject({ position: otherHead, lag: 0 });

      await stores.events.append(
        'lib-next',
        [testEvent('ItemAdded', { itemId: 'next', ownerId: 'o', title: 'Next' })],
        'any',
      );
      const head = await stores.events.headPosition();
      expect(await runner.waitFor(head, 5_000)).toBe(true);
      expect((await stores.reads.getCheckpoint('library-items'))!.position).toBe(head);
      expect(await stores.reads.collection('library_items').findById('next')).toMatchObject({ title: 'Next' });
    } finally {
      await runner.stop();
    }
  });
});
