import { JOBS, type JobQueue, ReadStoreJobQueue } from '@kora/kernel/nest';
import { join } from 'node:path';
import { EsdbJobQueue } from '../../src/infra/jobs/esdb-job-queue';
import { SqliteReadStore } from '../../src/infra/read-store/sqlite-read-store';
import { SqliteDatabase } from '../../src/infra/sqlite/sqlite-database';
import { tempDir } from '../support/temp';
import { jobQueueContract } from './job-queue.contract';

const LEASE_MS = 300;

jobQueueContract('read store (embedded SQLite)', async () => {
  const dir = tempDir();
  const db = new SqliteDatabase(join(dir.path, 'kora.db'));
  const reads = new SqliteReadStore(db);
  return {
    worker: () => new ReadStoreJobQueue(reads, { workers: 1, leaseMs: LEASE_MS }),
    // A dead worker stops renewing: its lease runs out.
    die: () => new Promise((resolve) => setTimeout(resolve, LEASE_MS + 50)),
    deliveryMs: 0,
    close: async () => {
      await reads.collection(JOBS).deleteMany({});
      db.close();
      dir.cleanup();
    },
  };
});

const eventStoreUrl = process.env.EVENTSTORE_URL ?? '';
jobQueueContract(
  'EventStoreDB persistent subscription (EVENTSTORE_URL)',
  async () => {
    const group = `kora-contract-${Date.now()}`;
    const queues: EsdbJobQueue[] = [];
    return {
      worker: () => {
        const queue = new EsdbJobQueue(eventStoreUrl, { workers: 1, leaseMs: LEASE_MS, group, maxRetryCount: 3 });
        queues.push(queue);
        return queue;
      },
      // The worker's connection drops: the server hands its unanswered jobs to the others.
      die: (queue: JobQueue) => (queue as EsdbJobQueue).onApplicationShutdown(),
      deliveryMs: 3_000,
      close: async () => {
        await Promise.all(queues.map((queue) => queue.onApplicationShutdown().catch(() => undefined)));
      },
    };
  },
  { skip: eventStoreUrl === '' },
);
