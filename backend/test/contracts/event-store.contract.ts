import { type EventStore, type RecordedEvent, WrongExpectedRevisionError } from '@kora/kernel';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testEvent, unique } from '../support/temp';

export interface EventStoreFixture {
  store: EventStore;
  close(): Promise<void>;
}

/**
 * The behaviour every event store adapter must have. Streams get unique names and reads start after the head seen
 * at the start of a test, so the suite also runs against a shared EventStoreDB that holds other data.
 */
export function eventStoreContract(
  name: string,
  open: () => Promise<EventStoreFixture>,
  options: { skip?: boolean } = {},
): void {
  ((options.skip ?? false) ? describe.skip : describe)(`EventStore contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;
    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterAll(async () => fixture?.close());

    it('appends to a new stream with zero-based revisions and increasing global positions', async () => {
      const stream = unique('order-');
      const result = await store.append(stream, [testEvent('A', { n: 1 }), testEvent('B', { n: 2 })], 'no_stream');
      expect(result.nextExpectedRevision).toBe(1);
      const events = await store.readStream(stream);
      expect(events.map((e) => [e.type, e.revision, e.streamName])).toEqual([
        ['A', 0, stream],
        ['B', 1, stream],
      ]);
      expect(events[1]!.position).toBeGreaterThanOrEqual(events[0]!.position); // one append may share a position
      const next = await store.append(stream, [testEvent('C')], 1);
      expect(next.position).toBeGreaterThan(result.position);
      expect(events[1]!.position).toBe(result.position);
    });

    it('round-trips the whole envelope', async () => {
      const stream = unique('envelope-');
      const event = testEvent(
        'Happened',
        { text: 'Dakar — Abidjan ✓', nested: { list: [1, 2.5, null, true] } },
        { userId: 'u-42', correlationId: 'c-9', causationId: 'k-3', schemaVersion: 2 },
      );
      await store.append(stream, [event], 'no_stream');
      const [read] = await store.readStream(stream);
      expect(read).toMatchObject({ id: event.id, type: event.type, data: event.data, metadata: event.metadata });
    });

    it('refuses a wrong expected revision with a typed error and writes nothing', async () => {
      const stream = unique('conflict-');
      await store.append(stream, [testEvent('A')], 'no_stream');
      await expect(store.append(stream, [testEvent('B')], 'no_stream')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(store.append(stream, [testEvent('B')], 5)).rejects.toMatchObject({
        code: 'EVENTSTORE.WRONG_EXPECTED_REVISION',
        streamName: stream,
      });
      await expect(store.append(unique('missing-'), [testEvent('B')], 'stream_exists')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect(await store.readStream(stream)).toHaveLength(1);
      await store.append(stream, [testEvent('B')], 0);
      await store.append(stream, [testEvent('C')], 'stream_exists');
      await store.append(stream, [testEvent('D')], 'any');
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
    });

    it('lets exactly one of 50 concurrent appends at the same expected revision win', async () => {
      const stream = unique('race-');
      await store.append(stream, [testEvent('Opened')], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => store.append(stream, [testEvent('Raced', { i })], 0)),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      for (const failure of lost) expect(failure.reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
    });

    it('acknowledges a repeated append of the same event ids without writing them twice', async () => {
      const stream = unique('retry-');
      const batch = [testEvent('A'), testEvent('B')];
      const first = await store.append(stream, batch, 'no_stream');
      const again = await store.append(stream, batch, 'no_stream');
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('reads a stream from a revision, with a maximum count, and an unknown stream as empty', async () => {
      const stream = unique('page-');
      await store.append(
        stream,
        [1, 2, 3, 4, 5].map((n) => testEvent('N', { n })),
        'no_stream',
      );
      const page = await store.readStream<{ type: 'N'; data: { n: number } }>(stream, { fromRevision: 2, maxCount: 2 });
      expect(page.map((e) => e.data.n)).toEqual([3, 4]);
      expect(await store.readStream(unique('nothing-'))).toEqual([]);
    });

    it('reads all from a global position, by type and by user, reporting how far it scanned', async () => {
      const start = await store.headPosition();
      const a = unique('all-a-');
      const b = unique('all-b-');
      const typeX = unique('X');
      const typeY = unique('Y');
      await store.append(a, [testEvent(typeX, { i: 1 }, { userId: 'alice' })], 'no_stream');
      await store.append(b, [testEvent(typeY, { i: 2 }, { userId: 'bob' })], 'no_stream');
      await store.append(a, [testEvent(typeY, { i: 3 }, { userId: 'alice' })], 0);
      const head = await store.headPosition();

      const everything = await store.readAll({ after: start, maxCount: 100 });
      const mine = everything.events.filter((e) => e.streamName === a || e.streamName === b);
      expect(mine.map((e) => (e.data as { i: number }).i)).toEqual([1, 2, 3]);
      expect(everything.scannedTo).toBe(head);

      const firstTwo = await store.readAll({ after: start, maxCount: 2 });
      expect(firstTwo.events).toHaveLength(2);
      expect(firstTwo.scannedTo).toBe(firstTwo.events[1]!.position);

      const ys = await store.readAll({ after: start, maxCount: 100, types: [typeY] });
      expect(ys.events.map((e) => (e.data as { i: number }).i)).toEqual([2, 3]);
      expect(ys.scannedTo).toBe(head);

      const alice = await store.readAll({ after: start, maxCount: 100, types: [typeX, typeY], userId: 'alice' });
      expect(alice.events.map((e) => (e.data as { i: number }).i)).toEqual([1, 3]);

      expect(await store.countAfter(start, 1000)).toBeGreaterThanOrEqual(3);
      expect(await store.countAfter(head, 1000)).toBe(0);
      expect(await store.readAll({ after: head, maxCount: 10 })).toEqual({ events: [], scannedTo: head });
    });

    it('subscribes from a checkpoint: catches up, then delivers live appends in order, once each', async () => {
      const stream = unique('sub-');
      const type = unique('Tick');
      await store.append(stream, [testEvent(type, { n: 0 })], 'no_stream');
      const checkpoint = await store.headPosition();
      await store.append(stream, [testEvent(type, { n: 1 }), testEvent(type, { n: 2 })], 0);

      const seen: RecordedEvent[] = [];
      const subscription = store.subscribe({ after: checkpoint, types: [type], batchSize: 2 }, async (events) => {
        seen.push(...events);
      });
      try {
        await waitUntil(() => seen.length >= 2);
        let revision = 2;
        for (let n = 3; n <= 6; n += 1) {
          await store.append(stream, [testEvent(type, { n })], revision);
          revision += 1;
        }
        await waitUntil(() => seen.length >= 6);
        expect(seen.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6]);
        const positions = seen.map((e) => e.position);
        expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      } finally {
        await subscription.stop();
      }
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}

export async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
