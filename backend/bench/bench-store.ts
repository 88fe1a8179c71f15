import '../src/runtime/refuse-unsupported-runtime';
import { defineProjection, type DomainEvent, type EventToAppend, ProjectionRunner, uuidv7 } from '@kora/kernel';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { SqliteEventStore } from '../src/infra/event-store/sqlite-event-store';
import { SqliteReadStore } from '../src/infra/read-store/sqlite-read-store';
import { SqliteDatabase } from '../src/infra/sqlite/sqlite-database';

/**
 * `npm run bench:store`: throughput of the embedded adapters with every acknowledged append fsynced
 * (WAL, every acknowledged append fsynced). Runs in a scratch directory under ./data (the same disk as a real install) and removes it.
 */
type BenchEvent = DomainEvent<'TrackProgressed', { trackId: string; step: number; status: string; note: string }>;

const summary = defineProjection<BenchEvent, { _id: string; steps: number; status: string; lastAt: string }>({
  name: 'bench-track-summary',
  version: 1,
  collection: 'bench_track_summary',
  indexes: [{ fields: { status: 1 } }],
  handles: ['TrackProgressed'],
  target: (event) => ({ id: event.data.trackId }),
  evolve: (current, event) => ({
    _id: event.data.trackId,
    steps: (current?.steps ?? 0) + 1,
    status: event.data.status,
    lastAt: event.metadata.occurredAt,
  }),
});

const STATUSES = ['UPLOADING', 'PROCESSING', 'ANALYZING', 'ENHANCING', 'FINALIZING', 'PREVIEW_READY'];

function event(trackId: string, step: number): EventToAppend<BenchEvent> {
  return {
    id: uuidv7(),
    type: 'TrackProgressed',
    data: { trackId, step, status: STATUSES[step % STATUSES.length]!, note: 'x'.repeat(96) },
    metadata: {
      correlationId: randomUUID(),
      causationId: randomUUID(),
      userId: `user-${trackId.slice(0, 4)}`,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  } as EventToAppend<BenchEvent>;
}

interface Row {
  measure: string;
  events: number;
  seconds: number;
  /** Microseconds of this process's CPU per event. */
  cpuUs: number;
  target?: number;
}

async function main(): Promise<void> {
  const dir = resolve(process.env.BENCH_DIR ?? join('data', `bench-${Date.now()}`));
  mkdirSync(dir, { recursive: true });
  // As the server does (SQLITE_CHECKPOINTS, default `thread`); `SQLITE_CHECKPOINTS=inline` for SQLite's own.
  const db = new SqliteDatabase(join(dir, 'bench.db'), {
    checkpoints: process.env.SQLITE_CHECKPOINTS === 'inline' ? 'inline' : 'thread',
  });
  const store = new SqliteEventStore(db);
  const reads = new SqliteReadStore(db);
  const rows: Row[] = [];
  const time = async (measure: string, events: number, work: () => Promise<void>, target?: number): Promise<void> => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    await work();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    rows.push({ measure, events, seconds, cpuUs: (used.user + used.system) / events, ...(target ? { target } : {}) });
    process.stderr.write(`  ${measure}: done\n`);
  };

  try {
    process.stderr.write(`bench:store in ${dir}\n`);
    // 1. Single-event appends, one after the other, each with its expected revision (the worst case).
    const SINGLE = 10_000;
    await time(
      'single appends, sequential (1 event per call)',
      SINGLE,
      async () => {
        for (let i = 0; i < SINGLE; i += 1) {
          const track = `single-${i % 1_000}`;
          await store.append(
            `track-${track}`,
            [event(track, Math.floor(i / 1_000))],
            i < 1_000 ? 'no_stream' : Math.floor(i / 1_000) - 1,
          );
        }
      },
      4_000,
    );

    // 2. Concurrent commands, as the server runs them: COMMANDS in flight over the same 1,000 streams, each reading its
    // stream (as a decider does) and appending one event at the revision it read; they share group commits.
    const COMMANDS = 20_000;
    const IN_FLIGHT = 64;
    let next = 0;
    await time(`concurrent read-and-append, ${IN_FLIGHT} in flight (1 event per call)`, COMMANDS, async () => {
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          // Command i goes to stream i mod 1,000: the 64 in flight never share one.
          for (let i = next++; i < COMMANDS; i = next++) {
            const track = `single-${i % 1_000}`;
            const stream = `track-${track}`;
            const events = await store.readStream(stream);
            await store.append(stream, [event(track, events.length)], events.length - 1);
          }
        }),
      );
    });

    // 3. Batched appends: 100 events per call.
    const BATCHES = 1_000;
    await time(
      'batched appends (100 events per call)',
      BATCHES * 100,
      async () => {
        for (let b = 0; b < BATCHES; b += 1) {
          const track = `batch-${b}`;
          await store.append(
            `track-${track}`,
            Array.from({ length: 100 }, (_, s) => event(track, s)),
            'no_stream',
          );
        }
      },
      60_000,
    );

    // Top the log up so the read and rebuild measures cover at least 100,000 events.
    const head = await store.headPosition();
    process.stderr.write(`  log holds ${head} events\n`);

    // 4. Read all, in pages of 1,000.
    let read = 0;
    await time('read all (pages of 1,000)', head, async () => {
      let after = 0;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 1_000 });
        read += page.events.length;
        if (page.events.length === 0) break;
        after = page.scannedTo;
      }
    });
    if (read !== head) throw new Error(`read ${read} events, expected ${head}`);

    // 5. Projection rebuild from zero (one document per track, the common read-model shape).
    const runner = new ProjectionRunner(store, reads, [summary]);
    let applied = 0;
    await time(
      'projection rebuild from zero',
      head,
      async () => {
        applied = (await runner.rebuild(summary.name)).applied;
      },
      50_000,
    );
    if (applied !== head) throw new Error(`rebuild applied ${applied} events, expected ${head}`);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `Embedded store, fsync on every commit (${cpus().length} cores, ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})\n`,
  );
  console.log('| measure | events | seconds | events/s | CPU per event | target | |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const row of rows) {
    const rate = row.events / row.seconds;
    const verdict = row.target === undefined ? '' : rate >= row.target ? 'met' : 'MISSED';
    console.log(
      `| ${row.measure} | ${row.events.toLocaleString('en-US')} | ${row.seconds.toFixed(2)} | ${Math.round(rate).toLocaleString('en-US')} | ${row.cpuUs.toFixed(1)} us | ${row.target?.toLocaleString('en-US') ?? '-'} | ${verdict} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
