import { ProjectionRunner } from '@kora/kernel';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { libraryProjection } from '../support/sample-projection';
import { type EmbeddedStores, embeddedStores } from '../support/stores';

interface Ack {
  stream: string;
  revision: number;
  position: number;
}

/** Runs the appender until it has acknowledged `count` appends, then kills it with SIGKILL. */
function appendThenKill(file: string, count: number): Promise<Ack[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '../fixtures/append-loop.cjs'), file, '11'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: Ack[] = [];
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const [, stream, revision, position] = line.split(' ');
        acks.push({ stream: stream!, revision: Number(revision), position: Number(position) });
      }
      if (acks.length >= count && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acks);
      else reject(new Error(`appender exited with ${code}: ${stderr}`));
    });
  });
}

describe('a writer killed with SIGKILL', () => {
  let stores: EmbeddedStores | null = null;
  afterEach(() => stores?.close());

  it('leaves no partial event, contiguous revisions, increasing positions, every ack durable, projections consistent', async () => {
    stores = embeddedStores();
    const file = stores.file;
    stores.db.close(); // the child owns the file while it runs
    const acks = await appendThenKill(file, 3_000);
    expect(acks.length).toBeGreaterThanOrEqual(3_000);

    // Reopen as a recovering process would.
    const { SqliteDatabase } = await import('../../src/infra/sqlite/sqlite-database');
    const { SqliteEventStore } = await import('../../src/infra/event-store/sqlite-event-store');
    const { SqliteReadStore } = await import('../../src/infra/read-store/sqlite-read-store');
    const db = new SqliteDatabase(file);
    stores = { ...stores, db, events: new SqliteEventStore(db), reads: new SqliteReadStore(db) };

    expect(db.reader.pragma('integrity_check', { simple: true })).toBe('ok');
    const all = (await stores.events.readAll({ after: 0, maxCount: 10_000_000 })).events;
    const positions = all.map((e) => e.position);
    for (let i = 1; i < positions.length; i += 1) expect(positions[i]).toBeGreaterThan(positions[i - 1]!);
    const revisions = new Map<string, number>();
    for (const event of all) {
      expect(event.revision).toBe((revisions.get(event.streamName) ?? -1) + 1);
      revisions.set(event.streamName, event.revision);
      expect(typeof event.data).toBe('object');
    }
    for (const ack of acks) {
      expect(revisions.get(ack.stream) ?? -1).toBeGreaterThanOrEqual(ack.revision);
      expect(all.some((e) => e.position === ack.position)).toBe(true);
    }

    // The read model the killed runner left behind catches up to exactly what a rebuild from zero gives.
    const runner = new ProjectionRunner(stores.events, stores.reads, [libraryProjection]);
    const checkpoint = (await stores.reads.getCheckpoint('library-items'))?.position ?? 0;
    expect(checkpoint).toBeGreaterThan(0);
    await runner.catchUp('library-items');
    const live = await stores.reads.collection('library_items').find({}, { sort: { _id: 1 } });
    await runner.rebuild('library-items');
    const rebuilt = await stores.reads.collection('library_items').find({}, { sort: { _id: 1 } });
    expect(live.length).toBeGreaterThan(0);
    expect(rebuilt).toEqual(live);
  }, 60_000);
});
