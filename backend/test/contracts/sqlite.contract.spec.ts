import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type AppendResult, WrongExpectedRevisionError } from '@kora/kernel';
import fs from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infra/event-store/sqlite-event-store';
import { SqliteReadStore } from '../../src/infra/read-store/sqlite-read-store';
import { SqliteDatabase } from '../../src/infra/sqlite/sqlite-database';
import { waitFor } from '../support/server-process';
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
    const statements = Object.getPrototypeOf(writer.prepare('SELECT 1')) as { run: (...args: unknown[]) => unknown };
    const run = statements.run;
    const failing = jest.spyOn(statements, 'run').mockImplementation(function (this: { source: string }, ...args) {
      if (this.source === 'COMMIT') throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      return run.apply(this, args);
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

describe('embedded SQLite event store: an error that ends the transaction', () => {
  it('fails the whole group when SQLite rolls the transaction back under an append, and stores none of it', async () => {
    const { db, close } = openDatabase();
    try {
      const store = new SqliteEventStore(db);
      const writer = db.writer;
      const statements = Object.getPrototypeOf(writer.prepare('SELECT 1')) as { run: (...args: unknown[]) => unknown };
      const run = statements.run;
      let inserts = 0;
      // The second INSERT of the group meets a full disk: SQLite rolls the transaction back and answers SQLITE_FULL.
      const full = jest.spyOn(statements, 'run').mockImplementation(function (this: { source: string }, ...args) {
        if (this.source.startsWith('INSERT INTO events') && ++inserts === 2) {
          writer.exec('ROLLBACK');
          throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        }
        return run.apply(this, args);
      });
      const streams = [unique('full-'), unique('full-'), unique('full-')];
      let outcomes: PromiseSettledResult<AppendResult>[];
      try {
        outcomes = await Promise.allSettled(streams.map((s) => store.append(s, [testEvent('A')], 'no_stream')));
      } finally {
        full.mockRestore();
      }
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const stream of streams) expect(await store.readStream(stream)).toEqual([]);
      await store.append(streams[2]!, [testEvent('A')], 'no_stream'); // and the store goes on
    } finally {
      await close();
    }
  });
});

describe('embedded SQLite read store: relaxed transactions commit together', () => {
  let opened: ReturnType<typeof openDatabase>;
  let store: SqliteReadStore;
  beforeAll(() => {
    opened = openDatabase();
    store = new SqliteReadStore(opened.db);
  });
  afterAll(async () => opened.close());

  /** Counts the COMMITs the writer runs while `work` does. */
  async function commitsDuring(work: () => Promise<unknown>): Promise<number> {
    const statements = Object.getPrototypeOf(opened.db.writer.prepare('SELECT 1')) as {
      run: (...args: unknown[]) => unknown;
    };
    const run = statements.run;
    let commits = 0;
    const spy = jest.spyOn(statements, 'run').mockImplementation(function (this: { source: string }, ...args) {
      if (this.source === 'COMMIT') commits += 1;
      return run.apply(this, args);
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return commits;
  }

  it('commits those asked for in one turn once, rolling back only the one that throws', async () => {
    const relaxed = { durability: 'relaxed' } as const;
    let outcomes: PromiseSettledResult<unknown>[] = [];
    const commits = await commitsDuring(async () => {
      outcomes = await Promise.allSettled([
        store.transaction(async (tx) => {
          await tx.collection('grouped').upsert({ _id: 'a' });
          await tx.setCheckpoint('grouped-a', { position: 1, version: 1 });
          return 'a';
        }, relaxed),
        store.transaction(async (tx) => {
          await tx.collection('grouped').upsert({ _id: 'b' });
          await tx.setCheckpoint('grouped-b', { position: 1, version: 1 });
          throw new Error('refused');
        }, relaxed),
        // Sees what the first one wrote, as it would one after the other ("the checkpoint is the lock").
        store.transaction(async (tx) => (await tx.getCheckpoint('grouped-a'))?.position ?? 0, relaxed),
      ]);
    });
    expect(commits).toBe(1);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: new Error('refused') },
      { status: 'fulfilled', value: 1 },
    ]);
    expect((await store.collection('grouped').find({})).map((doc) => doc._id)).toEqual(['a']);
    expect(await store.getCheckpoint('grouped-b')).toBeNull();
    expect((await store.getCheckpoint('grouped-a'))?.position).toBe(1);
  });

  it('answers each of a group with the error when the commit fails, and stores none of them', async () => {
    const statements = Object.getPrototypeOf(opened.db.writer.prepare('SELECT 1')) as {
      run: (...args: unknown[]) => unknown;
    };
    const run = statements.run;
    const failing = jest.spyOn(statements, 'run').mockImplementation(function (this: { source: string }, ...args) {
      if (this.source === 'COMMIT') throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      return run.apply(this, args);
    });
    let outcomes: PromiseSettledResult<void>[];
    try {
      outcomes = await Promise.allSettled(
        ['x', 'y'].map((id) =>
          store.transaction((tx) => tx.collection('doomed').upsert({ _id: id }), { durability: 'relaxed' }),
        ),
      );
    } finally {
      failing.mockRestore();
    }
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(opened.db.writer.inTransaction).toBe(false);
    expect(await store.collection('doomed').count()).toBe(0);
    // And the store goes on, creating the table it lost with the rollback.
    await store.transaction((tx) => tx.collection('doomed').upsert({ _id: 'z' }), { durability: 'relaxed' });
    expect(await store.collection('doomed').count()).toBe(1);
  });
});

describe('embedded SQLite event store: durability off the event loop', () => {
  /** Holds every fsync of the write-ahead log until released (or fails them). */
  function holdFsyncs(failure?: Error) {
    const real = fs.fdatasync;
    const held: Array<() => void> = [];
    const spy = jest.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: (error: Error | null) => void) => {
      held.push(() => (failure ? done(failure) : real(fd, done)));
    }) as typeof fs.fdatasync);
    return {
      count: () => held.length,
      release: () => held.splice(0).forEach((go) => go()),
      restore: () => spy.mockRestore(),
    };
  }

  it('acknowledges an append, and shows it to readers of the log, only once the log is fsynced', async () => {
    const { db, close } = openDatabase();
    const store = new SqliteEventStore(db);
    const fsyncs = holdFsyncs();
    try {
      const first = store.append(unique('warm-'), [testEvent('A')], 'no_stream');
      await waitFor(() => fsyncs.count() === 1);
      fsyncs.release();
      const before = (await first).position;

      const stream = unique('held-');
      let acknowledged = false;
      const append = store.append(stream, [testEvent('B')], 'no_stream').then((result) => {
        acknowledged = true;
        return result;
      });
      await waitFor(() => fsyncs.count() === 1);
      // Committed, not yet durable: not acknowledged, and no reader of the log or of the stream sees it.
      expect(acknowledged).toBe(false);
      expect(await store.headPosition()).toBe(before);
      expect((await store.readAll({ after: before, maxCount: 10 })).events).toEqual([]);
      let streamRead = false;
      const read = store.readStream(stream).then((events) => ((streamRead = true), events));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(streamRead).toBe(false);
      // Another append meanwhile commits without waiting for the first fsync, and shares the next one.
      const second = store.append(unique('next-'), [testEvent('C')], 'no_stream');
      fsyncs.release();
      const { position } = await append;
      expect((await read).map((event) => event.type)).toEqual(['B']);
      expect((await store.readAll({ after: before, maxCount: 10 })).events.map((e) => e.position)).toContain(position);
      await waitFor(() => fsyncs.count() === 1);
      fsyncs.release();
      expect((await second).position).toBe(position + 1);
      expect(await store.headPosition()).toBe(position + 1);
    } finally {
      fsyncs.restore();
      await close();
    }
  });

  it('acknowledges no append of a group whose fsync fails', async () => {
    const { db, close } = openDatabase();
    const store = new SqliteEventStore(db);
    await store.append(unique('warm-'), [testEvent('A')], 'no_stream');
    const fsyncs = holdFsyncs(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    try {
      const outcomes = Promise.allSettled([
        store.append(unique('lost-'), [testEvent('B')], 'no_stream'),
        store.append(unique('lost-'), [testEvent('C')], 'no_stream'),
      ]);
      await waitFor(() => fsyncs.count() === 1);
      fsyncs.release();
      expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    } finally {
      fsyncs.restore();
      await close();
    }
  });

  it('reads a stream from the file again once another process has written to it', async () => {
    const { db, close } = openDatabase();
    const other = new SqliteDatabase(db.file);
    try {
      const store = new SqliteEventStore(db);
      const stream = unique('shared-');
      await store.append(stream, [testEvent('A')], 'no_stream');
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A']); // now cached
      await new SqliteEventStore(other).append(stream, [testEvent('B')], 0);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B']);
      await store.append(stream, [testEvent('C')], 1);
      expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1, 2]);
    } finally {
      other.close();
      await close();
    }
  });
  it('keeps the streams it holds when another connection commits read models only, and reads again once it appends', async () => {
    const { db, close } = openDatabase();
    const other = new SqliteDatabase(db.file);
    try {
      const store = new SqliteEventStore(db);
      const stream = unique('kept-');
      await store.append(stream, [testEvent('A')], 'no_stream');
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A']); // now cached
      // A commit that leaves the log's end where it was: a projection's documents (the projections' thread). The
      // event's row is rewritten in it only to tell, from here, whether the stream was read from the file again.
      other.writer.exec('BEGIN IMMEDIATE');
      other.writer.exec(`CREATE TABLE IF NOT EXISTS rm_elsewhere (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      other.writer.exec(`UPDATE events SET type = 'Rewritten' WHERE stream = '${stream}'`);
      other.writer.exec('COMMIT');
      await new Promise((resolve) => setImmediate(resolve));
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A']); // from memory
      await new SqliteEventStore(other).append(stream, [testEvent('B')], 0);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['Rewritten', 'B']); // the file
    } finally {
      other.close();
      await close();
    }
  });

  it('checks an expected revision against what another process appended, even to a stream it holds in memory', async () => {
    const { db, close } = openDatabase();
    const other = new SqliteDatabase(db.file);
    try {
      const store = new SqliteEventStore(db);
      const stream = unique('stale-');
      await store.append(stream, [testEvent('A')], 'no_stream');
      expect(await store.readStream(stream)).toHaveLength(1); // cached: its end stands for the last revision
      await new SqliteEventStore(other).append(stream, [testEvent('B')], 0);
      // Same turn as the other process's commit, no read in between: the append alone must see it.
      await store.append(stream, [testEvent('C')], 1);
      await expect(store.append(stream, [testEvent('Stale')], 1)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B', 'C']);
    } finally {
      other.close();
      await close();
    }
  });

  it('acknowledges a repeat with any expected revision, and refuses a batch with an id stored elsewhere, whole', async () => {
    const { db, close } = openDatabase();
    try {
      const store = new SqliteEventStore(db);
      const stream = unique('repeat-');
      const first = testEvent('A');
      const written = await store.append(stream, [first], 'any');
      expect(await store.append(stream, [first], 'any')).toEqual(written);
      const elsewhere = testEvent('Elsewhere');
      await store.append(unique('other-'), [elsewhere], 'no_stream');
      await expect(store.append(stream, [testEvent('B'), elsewhere], 0)).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(store.append(stream, [elsewhere], 'any')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A']);
      await store.append(stream, [testEvent('B')], 0); // and the stream goes on from where it was
      expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1]);
    } finally {
      await close();
    }
  });
});

describe('embedded SQLite: the reads of one turn of the event loop share one read transaction', () => {
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('sees one snapshot within the turn, what another process committed from the next turn, and ends by itself', async () => {
    const { db, close } = openDatabase();
    const other = new SqliteDatabase(db.file);
    try {
      const store = new SqliteReadStore(db);
      const docs = store.collection<{ _id: string; n: number }>('turns');
      await docs.upsert({ _id: 'a', n: 1 });
      await nextTurn();
      expect(await docs.findById('a')).toEqual({ _id: 'a', n: 1 });
      expect(db.writer.inTransaction).toBe(true); // the turn's read transaction
      // Another process commits, within this turn (synchronously: an awaited write would end the turn).
      other.writer.prepare(`UPDATE rm_turns SET doc = ? WHERE id = 'a'`).run(JSON.stringify({ _id: 'a', n: 2 }));
      expect(await docs.findById('a')).toEqual({ _id: 'a', n: 1 }); // same turn, same snapshot
      await nextTurn();
      expect(db.writer.inTransaction).toBe(false);
      expect(await docs.findById('a')).toEqual({ _id: 'a', n: 2 });
    } finally {
      other.close();
      await close();
    }
  });

  it('ends before a write, so the write commits at once and the next read in the same turn sees it', async () => {
    const { db, close } = openDatabase();
    const other = new SqliteDatabase(db.file);
    try {
      const store = new SqliteReadStore(db);
      const docs = store.collection<{ _id: string; n: number }>('turns');
      await docs.upsert({ _id: 'b', n: 1 });
      await nextTurn();
      expect(await docs.findById('b')).toEqual({ _id: 'b', n: 1 });
      await docs.upsert({ _id: 'b', n: 2 }); // autocommitted under the lock, not inside the read transaction
      const seen = new SqliteReadStore(other).collection<{ _id: string; n: number }>('turns');
      expect(await seen.findById('b')).toEqual({ _id: 'b', n: 2 }); // committed before the turn ends
      expect(await docs.findById('b')).toEqual({ _id: 'b', n: 2 });
    } finally {
      other.close();
      await close();
    }
  });
});
