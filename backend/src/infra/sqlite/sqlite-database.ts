import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AsyncMutex } from './async-mutex';

export interface SqliteDatabaseOptions {
  /** `FULL` fsyncs the write-ahead log on every commit: an acknowledged write survives a power cut. */
  readonly synchronous?: 'FULL' | 'NORMAL';
}

/**
 * The embedded database file shared by the event log and the read store, so a projection's documents and its
 * checkpoint commit in one transaction. One connection writes (behind an async mutex), another reads: in WAL mode
 * readers see only committed data and never wait for the writer.
 */
export class SqliteDatabase {
  readonly writer: Database.Database;
  readonly reader: Database.Database;
  private readonly mutex = new AsyncMutex();
  private readonly synchronous: 'FULL' | 'NORMAL';
  private closed = false;

  constructor(
    readonly file: string,
    options: SqliteDatabaseOptions = {},
  ) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.writer = new Database(file);
    this.writer.pragma('journal_mode = WAL');
    this.synchronous = options.synchronous ?? 'FULL';
    this.writer.pragma(`synchronous = ${this.synchronous}`);
    this.writer.pragma('busy_timeout = 5000');
    this.writer.pragma('foreign_keys = ON');
    // The reader shares the file; a private in-memory database cannot be shared, so tests use a temp file.
    this.reader = file === ':memory:' ? this.writer : new Database(file, { readonly: true });
    this.reader.pragma('busy_timeout = 5000');
    for (const db of new Set([this.writer, this.reader])) registerFunctions(db);
  }

  /** Runs write work with the process-wide write lock held. */
  exclusive<R>(work: () => Promise<R> | R): Promise<R> {
    return this.mutex.run(work);
  }

  /**
   * Runs `work` in one IMMEDIATE transaction with the write lock held; rolls back if it throws. A `relaxed` commit
   * is not fsynced (`synchronous=NORMAL` for that commit only): it is atomic, and the next durable commit's fsync of
   * the write-ahead log, which is written in order, makes it durable too.
   */
  transaction<R>(work: () => Promise<R>, options: { relaxed?: boolean } = {}): Promise<R> {
    return this.mutex.run(async () => {
      const relax = options.relaxed === true && this.synchronous !== 'NORMAL';
      if (relax) this.writer.pragma('synchronous = NORMAL');
      try {
        this.writer.exec('BEGIN IMMEDIATE');
        try {
          const result = await work();
          this.writer.exec('COMMIT');
          return result;
        } catch (error) {
          if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
          throw error;
        }
      } finally {
        if (relax) this.writer.pragma(`synchronous = ${this.synchronous}`);
      }
    });
  }

  ping(): void {
    this.reader.prepare('SELECT 1').get();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
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
