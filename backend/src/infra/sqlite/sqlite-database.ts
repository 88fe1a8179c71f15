import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AsyncMutex } from './async-mutex';
import { ThreadLock } from './thread-lock';
import { WalCheckpointer } from './wal-checkpointer';
import { WalSync } from './wal-sync';

export interface SqliteDatabaseOptions {
  /** `FULL`: a write resolves once the write-ahead log is fsynced, so it survives a power cut. */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /**
   * `thread`: the write-ahead log is copied back into the file on a worker thread (`WalCheckpointer`), not inside the
   * writer's commits; `inline` (the default): SQLite does it inside the commit that takes the log over 1,000 pages.
   */
  readonly checkpoints?: 'thread' | 'inline';
  /** Told when the checkpoint thread fails and the writer checkpoints by itself again. */
  readonly onWarning?: (message: string) => void;
  /**
   * The write lock shared with the other threads of the process that open the same file (`ThreadLock.buffer`) and
   * this side's mark in it: their writes take turns without SQLite's busy handler sleeping the event loop. Absent: a
   * lock of its own, marked `ThreadLock.MAIN`.
   */
  readonly threadLock?: { readonly buffer: SharedArrayBuffer; readonly owner: number };
}

export interface WriteOptions {
  /**
   * Resolve without waiting for the fsync: the write is atomic, and the next durable write's fsync of the
   * write-ahead log, which is written in order, makes it durable too (a power cut can only take back work that is
   * redone from the log, such as a projection's batch).
   */
  readonly relaxed?: boolean;
}

/**
 * The embedded database file shared by the event log and the read store, so a projection's documents and its
 * checkpoint commit in one transaction. One connection writes (behind an async mutex), another reads: in WAL mode
 * readers see only committed data and never wait for the writer. Commits do not fsync on the event loop: a durable
 * write waits for an fsync of the log on the thread pool, shared by every write that asks at the same time
 * (`WalSync`).
 */
export class SqliteDatabase {
  readonly writer: Database.Database;
  readonly reader: Database.Database;
  private readonly mutex = new AsyncMutex();
  /** Taken inside the mutex around every write: shared with the other threads on the file (see the option). */
  readonly threadLock: ThreadLock;
  /** Null when SQLite fsyncs by itself (no write-ahead log, as in memory) or nothing is fsynced (`NORMAL`). */
  private readonly walSync: WalSync | null;
  private readonly checkpointer: WalCheckpointer | null = null;
  private checkpointQueued = false;
  private closed = false;
  /** Whether the writer holds the read transaction of this turn of the event loop (`readConnection`). */
  private turnRead = false;

  constructor(
    readonly file: string,
    options: SqliteDatabaseOptions = {},
  ) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.threadLock = new ThreadLock(options.threadLock?.buffer, options.threadLock?.owner);
    this.writer = new Database(file);
    const journal = this.writer.pragma('journal_mode = WAL', { simple: true });
    const synchronous = options.synchronous ?? 'FULL';
    this.walSync = synchronous === 'FULL' && journal === 'wal' ? new WalSync(`${file}-wal`) : null;
    this.writer.pragma(`synchronous = ${this.walSync ? 'NORMAL' : synchronous}`);
    this.writer.pragma('busy_timeout = 5000');
    this.writer.pragma('foreign_keys = ON');
    // The reader shares the file; a private in-memory database cannot be shared, so tests use a temp file.
    this.reader = file === ':memory:' ? this.writer : new Database(file, { readonly: true });
    this.reader.pragma('busy_timeout = 5000');
    for (const db of new Set([this.writer, this.reader])) {
      db.pragma('cache_size = -32768'); // 32 MiB a connection instead of 2: read models and indexes stay in memory
      registerFunctions(db);
    }
    if (options.checkpoints === 'thread' && journal === 'wal') {
      const inline = (): void => void this.writer.pragma('wal_autocheckpoint = 1000'); // SQLite's default
      this.writer.pragma('wal_autocheckpoint = 0');
      this.checkpointer = WalCheckpointer.start(file, {
        onLogLong: () => this.checkpointBetweenWrites(),
        onFailed: (message) => {
          if (this.closed) return;
          inline();
          options.onWarning?.(`The checkpoint thread failed (${message}); commits checkpoint by themselves again`);
        },
      });
      if (!this.checkpointer) inline();
    }
  }

  /** The writer's own passive checkpoint, between two writes: what the thread left is copied, the log starts over. */
  private checkpointBetweenWrites(): void {
    if (this.checkpointQueued || this.closed) return;
    this.checkpointQueued = true;
    void this.exclusive(
      () => {
        this.checkpointQueued = false;
        if (!this.closed) this.writer.pragma('wal_checkpoint(PASSIVE)');
      },
      { relaxed: true },
    ).catch(() => undefined); // a failed checkpoint leaves the log as it was; the thread asks again
  }

  /**
   * Runs write work with the process-wide write lock held, then (unless relaxed) waits until it is durable. The lock
   * is released before the wait, so the next writer goes on while the log is fsynced.
   */
  async exclusive<R>(work: () => Promise<R> | R, options: WriteOptions = {}): Promise<R> {
    const result = await this.mutex.run(async () => {
      await this.threadLock.acquire();
      try {
        this.endTurnRead(); // the work's statements must not join a read transaction that commits later
        return await work();
      } finally {
        this.threadLock.release();
      }
    });
    if (options.relaxed !== true) await this.durable();
    return result;
  }

  /** Runs `work` in one IMMEDIATE transaction with the write lock held; rolls back if it throws. */
  transaction<R>(work: () => Promise<R>, options: WriteOptions = {}): Promise<R> {
    return this.exclusive(async () => {
      const w = this.writer;
      run(w, 'BEGIN IMMEDIATE');
      try {
        const result = await work();
        run(w, 'COMMIT');
        return result;
      } catch (error) {
        if (w.inTransaction) run(w, 'ROLLBACK');
        throw error;
      }
    }, options);
  }

  /**
   * The connection to read committed data with: the writer when no write transaction is open on it, else the reader.
   * In WAL mode a connection drops its whole page cache when it sees that another connection has committed, so the
   * reader re-reads every page after each of the writer's commits, while the writer's cache stays valid across its
   * own (a lookup costs about half as much).
   *
   * The writer's reads share one read transaction per turn of the event loop, committed in the next check phase or
   * as soon as a write takes the lock. A statement outside a transaction takes and drops SQLite's file locks each
   * time (two `fcntl` calls, 7 of the 9 microseconds of a lookup by key here); within the turn's transaction they
   * are taken once. The turn's reads see one snapshot, committed data only, as before; what this process commits
   * meanwhile ends the transaction first, so a read after it sees it.
   */
  get readConnection(): Database.Database {
    const w = this.writer;
    if (w.inTransaction) return this.turnRead ? w : this.reader;
    if (this.reader !== w && !this.mutex.held) {
      run(w, 'BEGIN DEFERRED');
      this.turnRead = true;
      setImmediate(this.endTurnRead);
    }
    return w;
  }

  /**
   * Ends this turn's read transaction, so the next read sees what other threads have committed since it began (a
   * worker thread's projections: their progress is reported in the same turn as the requests waiting for it).
   */
  readonly endTurnRead = (): void => {
    if (!this.turnRead) return;
    this.turnRead = false;
    try {
      run(this.writer, 'COMMIT');
    } catch {
      // Nothing was written in it: ending it either way releases the snapshot (and this may run from a timer).
      if (this.writer.inTransaction) run(this.writer, 'ROLLBACK');
    }
  };

  /** Resolves once everything committed so far is durable. */
  durable(): Promise<void> {
    return this.walSync ? this.walSync.sync() : Promise.resolve();
  }

  ping(): void {
    this.reader.prepare('SELECT 1').get();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.checkpointer?.close();
    this.endTurnRead();
    this.walSync?.close();
    if (this.reader !== this.writer) this.reader.close();
    this.writer.close();
  }
}

function registerFunctions(db: Database.Database): void {
  // Case-insensitive substring match that folds every script, not only ASCII as SQLite's lower() does.
  db.function('kora_icontains', { deterministic: true }, (haystack: unknown, needle: unknown) =>
    typeof haystack === 'string' && typeof needle === 'string'
      ? Number(haystack.toLocaleLowerCase().includes(needle.toLocaleLowerCase()))
      : 0,
  );
}

const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** Prepares a statement once per connection. SQLite re-prepares it by itself when the schema changes. */
export function cachedStatement<P extends unknown[] = unknown[], R = unknown>(
  db: Database.Database,
  sql: string,
): Database.Statement<P, R> {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement as Database.Statement<P, R>;
}

/**
 * Runs a transaction control statement (`BEGIN`, `COMMIT`, `SAVEPOINT`...) from the cache instead of parsing it again
 * at every call as `exec` does. Not for `PRAGMA` settings: SQLite applies those when it compiles them.
 */
export function run(db: Database.Database, sql: string): void {
  cachedStatement(db, sql).run();
}
