import { afterEach, describe, expect, it } from '@jest/globals';
import { EventStore, ProjectionRunner } from '@kora/kernel';
import { join } from 'node:path';
import request from 'supertest';
import { seedMasteredTrack } from '../../bench/seed-track';
import { SqliteDatabase } from '../../src/infra/sqlite/sqlite-database';
import { ThreadLock } from '../../src/infra/sqlite/thread-lock';
import { registeredUser } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';
import { buyPackOverHttp } from '../billing/billing-support';

/**
 * `PROJECTIONS_THREAD=on`: the projections on a worker thread of their own, over HTTP as a buyer uses them. What a
 * request appends is in the read models when it answers (the thread's commits are read after its report), writes of
 * both threads take turns on the one file, and a thread that fails hands the projections back to the event loop.
 */
describe('projections on a thread of their own', () => {
  let test: TestApp | null = null;
  afterEach(async () => {
    await test?.close();
    test = null;
    delete process.env.KORA_PROJECTION_THREAD;
  });

  /** A buyer with a 5-credit pack and five mastering results to unlock. */
  async function buyerWithTracks(app: TestApp): Promise<{ auth: { Authorization: string }; tracks: string[] }> {
    const buyer = await registeredUser(app, { email: 'aminata@example.sn' });
    const events = app.app.get(EventStore);
    const tracks: string[] = [];
    for (let i = 0; i < 5; i += 1) tracks.push(await seedMasteredTrack(events, buyer.userId, `Titre ${i}.wav`));
    await buyPackOverHttp(app.url, buyer.auth, 'mastering-starter');
    return { auth: buyer.auth, tracks };
  }

  /** Unlocks every track by credit at once; each answer, and each read right after it, shows its unlock. */
  async function unlockAll(app: TestApp, auth: { Authorization: string }, tracks: string[]): Promise<void> {
    await Promise.all(
      tracks.map(async (id) => {
        const unlocked = await request(app.url).post(`/api/audio/track/${id}/master`).set(auth).send({ credit: true });
        expect([unlocked.status, unlocked.body.creditsUsed, unlocked.body.unlocked]).toEqual([200, 1, true]);
        const track = await request(app.url).get(`/api/audio/track/${id}`).set(auth).expect(200);
        expect(track.body.unlocked).toBe(true);
      }),
    );
    const current = await request(app.url).get('/api/subscriptions/current').set(auth).expect(200);
    expect(current.body.masteringCounts).toEqual({ total: 5, used: 5, remaining: 0 });
  }

  it('runs them off the event loop, and every answer reads its own writes', async () => {
    test = await startTestApp({ realAuth: true, env: { PROJECTIONS_THREAD: 'on' } });
    const runner = test.app.get(ProjectionRunner);
    expect(runner.where).toBe('remote');
    const { auth, tracks } = await buyerWithTracks(test);
    await unlockAll(test, auth, tracks);
    expect(runner.where).toBe('remote');
    const status = await runner.status();
    expect(status.every((projection) => projection.running && projection.lastError === null)).toBe(true);
  }, 60_000);

  it('runs them here with PROJECTIONS_THREAD=off', async () => {
    test = await startTestApp({ realAuth: true, env: { PROJECTIONS_THREAD: 'off' } });
    expect(test.app.get(ProjectionRunner).where).toBe('here');
  });

  it('runs them here when the thread cannot start', async () => {
    process.env.KORA_PROJECTION_THREAD = join(__dirname, '..', 'support', 'projection-thread-failing-at-start.mjs');
    test = await startTestApp({ realAuth: true, env: { PROJECTIONS_THREAD: 'on' } });
    expect(test.app.get(ProjectionRunner).where).toBe('here');
    const { auth, tracks } = await buyerWithTracks(test);
    await unlockAll(test, auth, tracks);
  }, 60_000);

  it('runs them here from their checkpoints when the thread stops midway', async () => {
    process.env.KORA_PROJECTION_THREAD = join(__dirname, '..', 'support', 'projection-thread-failing-at-append.mjs');
    test = await startTestApp({ realAuth: true, env: { PROJECTIONS_THREAD: 'on' } });
    const runner = test.app.get(ProjectionRunner);
    expect(runner.where).toBe('remote');
    // The first append stops the thread, which projected nothing: the requests waiting for it are answered once the
    // loops here have caught up.
    const { auth, tracks } = await buyerWithTracks(test);
    expect(runner.where).toBe('here');
    await unlockAll(test, auth, tracks);
  }, 60_000);
});

/** Two connections to one new file, as the main thread and the projections' thread open it (the second on the first's lock). */
async function onOneFile(work: (main: SqliteDatabase, thread: SqliteDatabase) => Promise<void> | void): Promise<void> {
  const dir = tempDir();
  const file = join(dir.path, 'kora.db');
  const main = new SqliteDatabase(file);
  const thread = new SqliteDatabase(file, { threadLock: { buffer: main.threadLock.buffer, owner: 2 } });
  try {
    await work(main, thread);
  } finally {
    thread.close();
    main.close();
    dir.cleanup();
  }
}

describe("the main thread's reads of what the projections' thread commits", () => {
  it("see a commit made during the turn only once the turn's read transaction is ended, as a progress report does", () =>
    onOneFile((main, thread) => {
      main.writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      const count = () => (main.readConnection.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
      expect(count()).toBe(0); // the turn's read transaction begins
      thread.writer.prepare('INSERT INTO t (id) VALUES (1)').run();
      expect(count()).toBe(0); // the same snapshot, for the rest of the turn
      main.endTurnRead();
      expect(count()).toBe(1);
    }));
});

describe('the write lock shared by the threads of a process', () => {
  it('lets one holder in at a time, and a waiter in as soon as it is released', async () => {
    const lock = new ThreadLock();
    const order: string[] = [];
    await lock.acquire();
    const second = lock.acquire().then(() => order.push('second in'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('first out');
    lock.release();
    await second;
    expect(order).toEqual(['first out', 'second in']);
    lock.release();
  });

  it("is taken around every write, so a second connection's writes on the same lock never meet SQLite's busy error", () =>
    onOneFile(async (a, b) => {
      a.writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT)');
      for (const db of [a, b]) db.writer.pragma('busy_timeout = 0'); // without the shared lock, an overlap fails at once
      const write = (db: SqliteDatabase, who: string) =>
        db.transaction(async () => {
          db.writer.prepare('INSERT INTO t (who) VALUES (?)').run(who);
          await new Promise((resolve) => setImmediate(resolve)); // the other side runs meanwhile
          db.writer.prepare('INSERT INTO t (who) VALUES (?)').run(who);
        });
      await Promise.all(Array.from({ length: 50 }, (_, i) => write(i % 2 ? a : b, i % 2 ? 'a' : 'b')));
      expect(a.writer.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 100 });
    }));
});
