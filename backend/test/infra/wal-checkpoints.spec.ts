import { afterEach, describe, expect, it } from '@jest/globals';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infra/event-store/sqlite-event-store';
import { SqliteDatabase, type SqliteDatabaseOptions } from '../../src/infra/sqlite/sqlite-database';
import { LONG_LOG_FRAMES, WalCheckpointer } from '../../src/infra/sqlite/wal-checkpointer';
import { tempDir, testEvent } from '../support/temp';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const size = (file: string): number => statSync(file).size;

describe('embedded SQLite: checkpoints on a thread of their own', () => {
  const opened: { db: SqliteDatabase; cleanup: () => void }[] = [];
  afterEach(() => {
    for (const { db, cleanup } of opened.splice(0)) {
      db.close();
      cleanup();
    }
  });

  function open(options: SqliteDatabaseOptions): { db: SqliteDatabase; file: string } {
    const dir = tempDir();
    const file = join(dir.path, 'kora.db');
    const db = new SqliteDatabase(file, options);
    opened.push({ db, cleanup: dir.cleanup });
    db.writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    return { db, file };
  }

  /** About 100 pages of rows, committed by the writer: far under the 1,000 pages of SQLite's own checkpoint. */
  async function write(db: SqliteDatabase): Promise<void> {
    await db.transaction(async () => {
      const insert = db.writer.prepare('INSERT INTO t (v) VALUES (?)');
      for (let i = 0; i < 400; i += 1) insert.run('x'.repeat(1_000));
    });
  }

  it("copies the writer's commits back into the file, where commits alone leave them in the log", async () => {
    const inline = open({ checkpoints: 'inline' });
    const thread = open({ checkpoints: 'thread' });
    expect(thread.db.writer.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect(inline.db.writer.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    const before = { inline: size(inline.file), thread: size(thread.file) };

    await write(inline.db);
    await write(thread.db);
    const deadline = Date.now() + 5_000;
    while (size(thread.file) === before.thread && Date.now() < deadline) await sleep(50);

    expect(size(thread.file)).toBeGreaterThan(before.thread + 300 * 1_000);
    expect(size(inline.file)).toBe(before.inline); // still only in the log: nothing copied it back
    const count = thread.db.reader.prepare('SELECT count(*) AS n FROM t').get() as { n: number };
    expect(count.n).toBe(400);
  });

  it('lets the log start over while a writer never stops, so it stays bounded', async () => {
    const { db, file } = open({ checkpoints: 'thread' });
    const store = new SqliteEventStore(db, { pollIntervalMs: 50 });
    const payload = 'y'.repeat(4_000);
    let written = 0;
    let longest = 0;
    const total = 8 * LONG_LOG_FRAMES * 4_096; // eight times the length past which the log is started over
    const watch = setInterval(() => (longest = Math.max(longest, size(`${file}-wal`))), 20);
    try {
      await Promise.all(
        Array.from({ length: 32 }, async (_, writer) => {
          for (let i = 0; written < total; i += 1) {
            await store.append(`s-${writer}-${i % 20}`, [testEvent('Filled', { payload })], 'any');
            written += payload.length;
          }
        }),
      );
    } finally {
      clearInterval(watch);
      await store.close();
    }
    expect(longest).toBeGreaterThan(0);
    // Bounded by the long-log length and what the writer adds before the next checkpoint, not by what was written.
    expect(longest).toBeLessThan(total / 2);
  }, 60_000);

  it('reports a thread that cannot open the database, so the writer checkpoints by itself again', async () => {
    const dir = tempDir();
    try {
      const failed = new Promise<string>((resolve) => {
        const checkpointer = WalCheckpointer.start(join(dir.path, 'missing.db'), {
          onLogLong: () => undefined,
          onFailed: resolve,
        });
        expect(checkpointer).not.toBeNull();
      });
      await expect(failed).resolves.toMatch(/unable to open|does not exist|SQLITE_CANTOPEN|directory/i);
    } finally {
      dir.cleanup();
    }
  });
});
