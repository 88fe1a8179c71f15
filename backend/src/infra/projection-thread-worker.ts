import { ProjectionRunner, type ProjectionState } from '@kora/kernel';
import { allProjections } from '@kora/projections';
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import {
  AppendSignal,
  type FromProjectionThread,
  PROJECTION_THREAD_LOCK_OWNER,
  type ProjectionThreadData,
  type ToProjectionThread,
} from './projection-thread';
import { SqliteReadStore } from './read-store/sqlite-read-store';
import { SqliteDatabase } from './sqlite/sqlite-database';

/**
 * The projections' thread (`ProjectionThread`): the product's projections on connections of their own to the
 * embedded database, their commits under the main thread's write lock. It checkpoints the log inside its own commits
 * as SQLite does by default (off the main thread either way). Each step's state goes back to the main thread, the
 * steps of one turn in one message.
 */
const { file, threadLock, appends, pollIntervalMs } = workerData as ProjectionThreadData;
const port = parentPort!;
const post = (message: FromProjectionThread): void => port.postMessage(message);

/** A log context as the main thread's logger takes it: errors by their message and stack, the rest as is. */
function plain(context: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(context).map(([key, value]) => [
      key,
      value instanceof Error ? { message: value.message, stack: value.stack } : value,
    ]),
  );
}

const db = new SqliteDatabase(file, {
  threadLock: { buffer: threadLock, owner: PROJECTION_THREAD_LOCK_OWNER },
  checkpoints: 'inline',
});
const events = new SqliteEventStore(db, { pollIntervalMs, tailsOtherWriters: true });
const reads = new SqliteReadStore(db);
const pending = new Map<string, ProjectionState>();
const flush = (): void => {
  post({ kind: 'states', states: [...pending.values()] });
  pending.clear();
};
const runner = new ProjectionRunner(events, reads, allProjections, {
  logger: {
    info: (context, message) => post({ kind: 'log', level: 'info', context: plain(context), message }),
    error: (context, message) => post({ kind: 'log', level: 'error', context: plain(context), message }),
  },
  onStep: (state) => {
    if (pending.size === 0) setImmediate(flush);
    pending.set(state.name, state);
  },
});

let stopping = false;
port.on('message', (message: ToProjectionThread) => {
  if (message.kind === 'stop') void stop();
});

/** Wakes the loops at each of the main thread's appends. */
async function followAppends(): Promise<void> {
  const signal = new AppendSignal(appends);
  let seen = signal.count;
  while (!stopping) {
    await signal.changed(seen);
    seen = signal.count;
    events.appended.notify();
  }
}

async function stop(): Promise<void> {
  stopping = true;
  new AppendSignal(appends).signal(); // ends the wait of `followAppends`
  await runner.stop();
  await events.close();
  await reads.close();
  db.close();
  post({ kind: 'stopped' });
  port.close();
}

void runner.start().then(() => {
  post({ kind: 'started' });
  void followAppends();
});
