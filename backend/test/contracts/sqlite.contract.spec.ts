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
