import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointMessage, CheckpointWorkerData } from './wal-checkpointer';

/**
 * The checkpointer's thread (`WalCheckpointer`): a connection of its own to the database file that copies the
 * write-ahead log back into the file, so the writer's `COMMIT` never does.
 */
const { file, intervalMs } = workerData as CheckpointWorkerData;
const db = new Database(file, { fileMustExist: true });
// A checkpoint at NORMAL fsyncs the log before it copies pages and the file after, as the writer's own would.
db.pragma('synchronous = NORMAL');
/** The data version last checkpointed; none yet, so the first turn copies what was committed before this opened. */
let seen: unknown = null;

const post = (message: CheckpointMessage): void => parentPort!.postMessage(message);
/** Ends the thread: no more turns, the connection closed, the port closed (the thread then exits). */
const stop = (): void => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
};

const timer = setInterval(() => {
  try {
    // data_version changes when another connection commits: a quiet database is left alone.
    const version = db.pragma('data_version', { simple: true });
    if (version === seen) return;
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    seen = version;
    post({ kind: 'checkpointed', frames: result!.log, copied: result!.checkpointed });
  } catch (error) {
    // Another process's checkpoint holds the log (replicas sharing the file): theirs copies it, try again next turn.
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return;
    post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    stop();
  }
}, intervalMs);

parentPort!.on('message', (message: unknown) => {
  if (message === 'close') stop();
});
