import {
  type Checkpoint,
  type Collection,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpec,
  ReadStore,
  type ReadStoreSession,
  type TransactionOptions,
} from '@kora/kernel';
import type Database from 'better-sqlite3';
import { GroupCommit } from '../sqlite/group-commit';
import { cachedStatement as sql, run, type SqliteDatabase } from '../sqlite/sqlite-database';
import { compileFilter, compileSort, fieldExpression } from './sql-filter';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,100}$/;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name       TEXT PRIMARY KEY,
  position   INTEGER NOT NULL,
  version    INTEGER NOT NULL,
  updated_at TEXT    NOT NULL
) WITHOUT ROWID;
`;

function tableName(collection: string): string {
  if (!NAME.test(collection)) throw new Error(`Invalid collection name ${collection}`);
  return `"rm_${collection}"`;
}

function isMissingTable(error: unknown): boolean {
  return error instanceof Error && /no such table/.test(error.message);
}

interface QueuedTransaction {
  readonly work: (session: ReadStoreSession) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type TransactionOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface CheckpointRow {
  name: string;
  position: number;
  version: number;
  updated_at: string;
}

/**
 * The embedded read store: one table per collection (`rm_<name>`: id and a JSON document) in the same SQLite file as
 * the event log. Reads outside a transaction see committed data only (`SqliteDatabase.readConnection`); a
 * transaction's reads and writes go through the writer, under the process-wide write lock.
 */
export class SqliteReadStore extends ReadStore {
  readonly kind = 'sqlite';
  private readonly tables = new Set<string>();
  private readonly relaxed: GroupCommit<QueuedTransaction, TransactionOutcome>;

  constructor(private readonly db: SqliteDatabase) {
    super();
    db.writer.exec(SCHEMA);
    // Relaxed transactions (projection batches, processor checkpoints, a rebuild's swap) commit in groups, as appends
    // do: one transaction, each under its own savepoint (`commitGroup`), each answered after the one commit.
    this.relaxed = new GroupCommit(
      db,
      (group) => this.commitGroup(group),
      (group, outcomes) =>
        group.forEach((request, i) => {
          const outcome = outcomes[i]!;
          if (outcome.ok) request.resolve(outcome.value);
          else request.reject(outcome.error);
        }),
    );
  }

  collection<T extends Document = Document>(name: string): Collection<T> {
    return new SqliteCollection<T>(name, this, null);
  }

  transaction<R>(work: (session: ReadStoreSession) => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    if (options.durability === 'relaxed') {
      return new Promise<R>((resolve, reject) => {
        this.relaxed.enqueue({ work, resolve, reject } as QueuedTransaction);
      });
    }
    return this.db.transaction(async () => {
      const created = new Set<string>();
      try {
        return await work(new SqliteSession(this, created));
      } catch (error) {
        for (const table of created) this.tables.delete(table); // rolled back with the transaction
        throw error;
      }
    });
  }

  /**
   * One group of relaxed transactions: each under its own savepoint, so one that throws is rolled back alone and the
   * others are as if run one after the other. Each still reads and writes its checkpoint inside the transaction ("the
   * checkpoint is the lock"). A failed commit fails them all (nothing of them is stored).
   */
  private async commitGroup(group: readonly QueuedTransaction[]): Promise<TransactionOutcome[]> {
    const w = this.db.writer;
    const outcomes: TransactionOutcome[] = [];
    const created = new Set<string>();
    try {
      run(w, 'BEGIN IMMEDIATE');
      for (const request of group) {
        const mine = new Set<string>();
        run(w, 'SAVEPOINT tx');
        try {
          const value = await request.work(new SqliteSession(this, mine));
          run(w, 'RELEASE tx');
          for (const table of mine) created.add(table);
          outcomes.push({ ok: true, value });
        } catch (error) {
          for (const table of mine) this.tables.delete(table); // rolled back with its savepoint
          run(w, 'ROLLBACK TO tx');
          run(w, 'RELEASE tx');
          outcomes.push({ ok: false, error });
        }
      }
      run(w, 'COMMIT');
    } catch (error) {
      for (const table of created) this.tables.delete(table); // rolled back with the transaction
      if (w.inTransaction) run(w, 'ROLLBACK');
      throw error;
    }
    return outcomes;
  }

  async getCheckpoint(name: string): Promise<Checkpoint | null> {
    return readCheckpoint(this.db.readConnection, name);
  }

  async setCheckpoint(name: string, checkpoint: Omit<Checkpoint, 'updatedAt'>): Promise<void> {
    await this.db.exclusive(() => writeCheckpoint(this.db.writer, name, checkpoint));
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.db.exclusive(() => sql(this.db.writer, 'DELETE FROM projection_checkpoints WHERE name = ?').run(name));
  }

  async listCheckpoints(): Promise<Array<Checkpoint & { name: string }>> {
    const rows = this.db.readConnection
      .prepare('SELECT name, position, version, updated_at FROM projection_checkpoints ORDER BY name')
      .all() as CheckpointRow[];
    return rows.map((row) => ({ name: row.name, ...fromRow(row) }));
  }

  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    await this.db.exclusive(() => {
      const table = this.ensureTable(collection);
      for (const index of indexes) {
        const fields = Object.entries(index.fields);
        const name = `ix_${collection}_${fields.map(([f, d]) => `${f}_${d === -1 ? 'd' : 'a'}`).join('_')}`.replace(
          /[^A-Za-z0-9_]/g,
          '_',
        );
        const columns = fields.map(([f, d]) => `${fieldExpression(f)} ${d === -1 ? 'DESC' : 'ASC'}`).join(', ');
        this.db.writer.exec(
          `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${name}" ON ${table} (${columns})`,
        );
      }
    });
  }

  async dropCollection(name: string): Promise<void> {
    await this.db.exclusive(() => {
      this.db.writer.exec(`DROP TABLE IF EXISTS ${tableName(name)}`);
      this.tables.delete(name);
    });
  }

  async ping(): Promise<void> {
    this.db.ping();
  }

  async close(): Promise<void> {
    this.tables.clear();
  }

  /** Creates the collection's table on first write. Call with the write lock held. */
  ensureTable(collection: string, created?: Set<string>): string {
    const table = tableName(collection);
    if (!this.tables.has(collection)) {
      this.db.writer.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      this.tables.add(collection);
      created?.add(collection);
    }
    return table;
  }

  /** Forgets that a table exists (it was renamed or dropped); a later write creates it again. */
  forget(collection: string): void {
    this.tables.delete(collection);
  }

  /** Runs a write outside any transaction (autocommit) with the write lock held. */
  write<R>(collection: string, work: (db: Database.Database, table: string) => R): Promise<R> {
    return this.db.exclusive(() => work(this.db.writer, this.ensureTable(collection)));
  }

  /** Where reads outside a transaction go (see `SqliteDatabase.readConnection`). */
  get readerConnection(): Database.Database {
    return this.db.readConnection;
  }

  get writerConnection(): Database.Database {
    return this.db.writer;
  }
}

/** A transaction's view: every statement on the writer, inside the open transaction. */
class SqliteSession implements ReadStoreSession {
  constructor(
    private readonly store: SqliteReadStore,
    private readonly created: Set<string>,
  ) {}

  collection<T extends Document = Document>(name: string): Collection<T> {
    return new SqliteCollection<T>(name, this.store, this.created);
  }

  async getCheckpoint(name: string): Promise<Checkpoint | null> {
    return readCheckpoint(this.store.writerConnection, name);
  }

  async setCheckpoint(name: string, checkpoint: Omit<Checkpoint, 'updatedAt'>): Promise<void> {
    writeCheckpoint(this.store.writerConnection, name, checkpoint);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    sql(this.store.writerConnection, 'DELETE FROM projection_checkpoints WHERE name = ?').run(name);
  }

  async replaceCollection(from: string, to: string): Promise<void> {
    const source = this.store.ensureTable(from, this.created);
    const db = this.store.writerConnection;
    db.exec(`DROP TABLE IF EXISTS ${tableName(to)}`);
    db.exec(`ALTER TABLE ${source} RENAME TO ${tableName(to)}`);
    // Renaming keeps the source's index names; rename them so the next rebuild can create its own.
    const indexes = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
      .all(`rm_${to}`) as Array<{ name: string; sql: string }>;
    for (const index of indexes) {
      const renamed = index.name.replace(`ix_${from}_`, `ix_${to}_`).replace(/[^A-Za-z0-9_]/g, '_');
      if (renamed === index.name) continue;
      db.exec(`DROP INDEX "${index.name}"`);
      db.exec(index.sql.replace(`"${index.name}"`, `"${renamed}"`));
    }
    this.store.forget(from);
    this.created.add(to);
  }
}

class SqliteCollection<T extends Document> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly store: SqliteReadStore,
    /** Set inside a transaction: statements then run on the writer, in the transaction. */
    private readonly created: Set<string> | null,
  ) {}

  private read<R>(work: (db: Database.Database, table: string) => R, empty: R): R {
    const inTransaction = this.created !== null;
    const db = inTransaction ? this.store.writerConnection : this.store.readerConnection;
    try {
      return work(db, tableName(this.name));
    } catch (error) {
      if (isMissingTable(error)) return empty;
      throw error;
    }
  }

  private write<R>(work: (db: Database.Database, table: string) => R): Promise<R> {
    if (this.created !== null) {
      const table = this.store.ensureTable(this.name, this.created);
      return Promise.resolve(work(this.store.writerConnection, table));
    }
    return this.store.write(this.name, work);
  }

  async findById(id: string): Promise<T | null> {
    return this.read((db, table) => {
      const row = sql(db, `SELECT doc FROM ${table} WHERE id = ?`).get(id) as { doc: string } | undefined;
      return row ? (JSON.parse(row.doc) as T) : null;
    }, null);
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const where = compileFilter(filter);
    const order = compileSort(options.sort);
    return this.read((db, table) => {
      const rows = sql(db, `SELECT doc FROM ${table} WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
        ...where.params,
        options.limit ?? -1,
        options.skip ?? 0,
      ) as Array<{ doc: string }>;
      return rows.map((row) => JSON.parse(row.doc) as T);
    }, []);
  }

  async count(filter: Filter = {}): Promise<number> {
    const where = compileFilter(filter);
    return this.read(
      (db, table) =>
        (sql(db, `SELECT count(*) AS n FROM ${table} WHERE ${where.sql}`).get(...where.params) as { n: number }).n,
      0,
    );
  }

  async upsert(doc: T): Promise<void> {
    if (typeof doc._id !== 'string' || doc._id.length === 0) throw new Error('A document needs a string _id');
    const json = JSON.stringify(doc);
    await this.write((db, table) =>
      sql(db, `INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`).run(
        doc._id,
        json,
      ),
    );
  }

  async deleteById(id: string): Promise<boolean> {
    return this.write((db, table) => sql(db, `DELETE FROM ${table} WHERE id = ?`).run(id).changes > 0);
  }

  async deleteMany(filter: Filter): Promise<number> {
    const where = compileFilter(filter);
    return this.write((db, table) => sql(db, `DELETE FROM ${table} WHERE ${where.sql}`).run(...where.params).changes);
  }
}

function fromRow(row: CheckpointRow): Checkpoint {
  return { position: row.position, version: row.version, updatedAt: row.updated_at };
}

function readCheckpoint(db: Database.Database, name: string): Checkpoint | null {
  const row = sql(db, 'SELECT name, position, version, updated_at FROM projection_checkpoints WHERE name = ?').get(
    name,
  ) as CheckpointRow | undefined;
  return row ? fromRow(row) : null;
}

function writeCheckpoint(db: Database.Database, name: string, checkpoint: Omit<Checkpoint, 'updatedAt'>): void {
  sql(
    db,
    `INSERT INTO projection_checkpoints (name, position, version, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET position = excluded.position, version = excluded.version,
     updated_at = excluded.updated_at`,
  ).run(name, checkpoint.position, checkpoint.version, new Date().toISOString());
}
