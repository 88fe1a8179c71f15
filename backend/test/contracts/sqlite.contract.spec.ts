import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type AppendResult, WrongExpectedRevisionError } from '@kora/kernel';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infra/event-store/sqlite-event-store';
import { SqliteReadStore } from '../../src/infra/read-store/sqlite-read-store';
import { SqliteDatabase } from '../../src/infra/sqlite/sqlite-database';
import { tempDir, testEvent, unique } from '../support/temp';
import { eventStoreContract } from './event-store.contract';
import { readStoreContract } from './read-store.contract';

function openDatabase(): { db: SqliteDatabase; close: () => Promise<void> } {
  const dir = tempDir();
  const db = new SqliteDatabase(join(dir.path, 'kora.db'));
  return {
    db,
    close: async () => {
      db.close();
      dir.cleanup();
    },
  };
}

eventStoreContract('embedded SQLite', async () => {
  const { db, close } = openDatabase();
  return { store: new SqliteEventStore(db, { pollIntervalMs: 50 }), close };
});

readStoreContract('embedded SQLite', async () => {
  const { db, close } = openDatabase();
  return { store: new SqliteReadStore(db), close };
});

describe('embedded SQLite event store: group commit', () => {
  let opened: ReturnType<typeof openDatabase>;
  let store: SqliteEventStore;
  let commits: number[];
  beforeAll(() => {
    opened = openDatabase();
    commits = [];
    store = new SqliteEventStore(opened.db, { onAppended: (count) => commits.push(count) });
  });
  afterAll(async () => opened.close());

  it('writes appends asked for together in one commit, in the order asked, refusing only the wrong one', async () => {
    const streams = Array.from({ length: 20 }, () => unique('group-'));
    commits.length = 0;
    const asked = [
      ...streams.map((stream, i) => store.append(stream, [testEvent('Opened', { i })], 'no_stream')),
      // The first stream again, expecting the revision the first append of this group gives it: applies after it.
      store.append(streams[0]!, [testEvent('Followed')], 0),
      // And a wrong expectation: refused, with nothing of it stored, without taking the others down.
      store.append(streams[1]!, [testEvent('Raced'), testEvent('Raced')], 5),
    ];
    const outcomes = await Promise.allSettled(asked);
    expect(outcomes.slice(0, 21).every((o) => o.status === 'fulfilled')).toBe(true);
    expect(outcomes[21]).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevisionError) });
    expect(commits).toEqual([21]); // one transaction, one fsync, for the whole group
    const positions = outcomes.slice(0, 20).map((o) => (o as PromiseFulfilledResult<AppendResult>).value.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect((await store.readStream(streams[0]!)).map((e) => e.type)).toEqual(['Opened', 'Followed']);
    expect((await store.readStream(streams[1]!)).map((e) => e.type)).toEqual(['Opened']);
  });

  it('answers every append of a group with the error when the commit itself fails, and stores none', async () => {
    const stream = unique('doomed-');
    const writer = opened.db.writer;
    const exec = writer.exec.bind(writer);
    const failing = jest.spyOn(writer, 'exec').mockImplementation((sql: string) => {
      if (sql === 'COMMIT') throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      return exec(sql);
    });
    try {
      const outcomes = await Promise.allSettled([
        store.append(stream, [testEvent('A')], 'no_stream'),
        store.append(unique('doomed-'), [testEvent('B')], 'no_stream'),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    } finally {
      failing.mockRestore();
    }
    expect(writer.inTransaction).toBe(false);
    expect(await store.readStream(stream)).toEqual([]);
    await store.append(stream, [testEvent('A')], 'no_stream'); // and the store goes on
  });
});

describe('embedded SQLite event store: the tail of its own appends', () => {
  let dir: ReturnType<typeof tempDir>;
  let server: SqliteDatabase;
  let tool: SqliteDatabase;
  beforeAll(() => {
    dir = tempDir();
    server = new SqliteDatabase(join(dir.path, 'kora.db'));
    // A second connection to the same file, as a command-line tool appending beside the running server.
    tool = new SqliteDatabase(join(dir.path, 'kora.db'));
  });
  afterAll(() => {
    server.close();
    tool.close();
    dir.cleanup();
  });

  /** Every read the subscribers make, through the store that appended (its tail) and through a fresh one (the table). */
  async function sameAsTheTable(store: SqliteEventStore, after: number, types: string[]): Promise<void> {
    const table = new SqliteEventStore(server);
    for (const options of [
      { after, maxCount: 100 },
      { after, maxCount: 2 },
      { after: after + 1, maxCount: 100 },
      { after, maxCount: 100, types },
      { after, maxCount: 1, types: [types[1]!] },
      { after, maxCount: 100, types, userId: 'alice' },
      { after, maxCount: 100, userId: 'nobody' },
    ]) {
      expect(await store.readAll(options)).toEqual(await table.readAll(options));
    }
  }

  it('answers reads after its appends exactly as the table does', async () => {
    const store = new SqliteEventStore(server);
    const start = await store.headPosition();
    const [x, y] = [unique('X'), unique('Y')];
    await store.append(unique('t-'), [testEvent(x, { i: 1 }, { userId: 'alice' })], 'no_stream');
    await Promise.all([
      store.append(unique('t-'), [testEvent(y, { i: 2 }, { userId: 'bob' }), testEvent(x, { i: 3 })], 'no_stream'),
      store.append(unique('t-'), [testEvent(y, { i: 4, nested: { list: [1] } }, { userId: 'alice' })], 'no_stream'),
    ]);
    await sameAsTheTable(store, start, [x, y]);
    const read = await store.readAll({ after: start, maxCount: 100 });
    expect(read.events.map((e) => (e.data as { i: number }).i)).toEqual([1, 2, 3, 4]);
  });

  it('gives every reader the same frozen events, not what the caller appended', async () => {
    const store = new SqliteEventStore(server);
    const start = await store.headPosition();
    const data = { tags: ['a'] };
    await store.append(unique('t-'), [testEvent('Tagged', data)], 'no_stream');
    data.tags.push('changed by the caller afterwards');
    const [event] = (await store.readAll({ after: start, maxCount: 10 })).events;
    expect(event!.data).toEqual({ tags: ['a'] });
    expect(() => (event!.data as { tags: string[] }).tags.push('b')).toThrow(TypeError);
    expect(Object.isFrozen(event!.metadata)).toBe(true);
  });

  it('reads what another connection appended in between from the table, then its own appends again', async () => {
    const store = new SqliteEventStore(server);
    const other = new SqliteEventStore(tool);
    const start = await store.headPosition();
    await store.append(unique('t-'), [testEvent('Mine', { n: 1 })], 'no_stream');
    await other.append(unique('t-'), [testEvent('Theirs', { n: 2 })], 'no_stream');
    await store.append(unique('t-'), [testEvent('Mine', { n: 3 })], 'no_stream');
    const all = await store.readAll({ after: start, maxCount: 100 });
    expect(all.events.map((e) => [e.type, (e.data as { n: number }).n])).toEqual([
      ['Mine', 1],
      ['Theirs', 2],
      ['Mine', 3],
    ]);
    await sameAsTheTable(store, start, ['Mine', 'Theirs']);
    // The other connection appends last: the head is past the tail, so the table answers.
    await other.append(unique('t-'), [testEvent('Theirs', { n: 4 })], 'no_stream');
    const after = await store.readAll({ after: all.scannedTo, maxCount: 100 });
    expect(after.events.map((e) => (e.data as { n: number }).n)).toEqual([4]);
  });
});
