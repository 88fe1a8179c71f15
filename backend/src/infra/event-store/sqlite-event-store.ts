import {
  type AppendResult,
  type DomainEvent,
  EventStore,
  type EventToAppend,
  type ExpectedRevision,
  Notifier,
  type ReadAllOptions,
  type ReadAllResult,
  type ReadStreamOptions,
  type RecordedEvent,
  upcast,
  WrongExpectedRevisionError,
} from '@kora/kernel';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../sqlite/sqlite-database';

/** A row as an array in `COLUMNS` order: statements run in raw mode, which spares an object per row on reads. */
type EventRow = [
  position: number,
  id: string,
  stream: string,
  revision: number,
  type: string,
  data: string,
  metadata: string,
];

export interface SqliteEventStoreOptions {
  /** How often a drained reader looks again for appends made by other processes. */
  readonly pollIntervalMs?: number;
  /** Called after each durable append with the number of events written (metrics). */
  readonly onAppended?: (count: number) => void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  id       TEXT    NOT NULL UNIQUE,
  stream   TEXT    NOT NULL,
  revision INTEGER NOT NULL,
  type     TEXT    NOT NULL,
  user_id  TEXT,
  data     TEXT    NOT NULL,
  metadata TEXT    NOT NULL,
  UNIQUE (stream, revision)
);

`;

const COLUMNS = 'position, id, stream, revision, type, data, metadata';

/** How many of its latest appends a store keeps in memory for `readAll` (see `LogTail`). */
const TAIL_EVENTS = 1_000;

interface QueuedAppend {
  readonly streamName: string;
  readonly events: readonly EventToAppend[];
  readonly expectedRevision: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The embedded event log: one SQLite table, positions from an AUTOINCREMENT key (never reused), revisions unique
 * per stream. Appends run in an IMMEDIATE transaction under the process-wide write lock with `synchronous=FULL`, so
 * a resolved append has been fsynced; concurrent appends share one such commit (see `append`). Re-appending events whose ids are already in the stream at the same place is
 * acknowledged without writing again (idempotent retries), as EventStoreDB does.
 */
export class SqliteEventStore extends EventStore {
  readonly kind = 'sqlite';
  readonly appended = new Notifier();
  readonly pollIntervalMs: number;
  private readonly onAppended: ((count: number) => void) | undefined;
  private readonly insert: Statement;
  private readonly lastRevision: Statement<[string], { revision: number | null }>;
  private readonly findById: Statement<[string], { stream: string; revision: number; position: number }>;
  private readonly headStatement: Statement<[], { head: number | null }>;
  private readonly readStreamStatement: Statement<[string, number, number], EventRow>;
  private readonly countStatement: Statement<[number, number], { n: number }>;
  private readonly readAllStatements = new Map<string, Statement<unknown[], EventRow>>();
  private readonly queued: QueuedAppend[] = [];
  private flushing = false;
  private readonly tail = new LogTail(TAIL_EVENTS);

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteEventStoreOptions = {},
  ) {
    super();
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.onAppended = options.onAppended;
    db.writer.exec(SCHEMA);
    const w = db.writer;
    const r = db.reader;
    this.insert = w.prepare(
      'INSERT INTO events (id, stream, revision, type, user_id, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.lastRevision = w.prepare('SELECT max(revision) AS revision FROM events WHERE stream = ?');
    this.findById = w.prepare('SELECT stream, revision, position FROM events WHERE id = ?');
    this.headStatement = r.prepare('SELECT max(position) AS head FROM events');
    this.readStreamStatement = r
      .prepare(`SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`)
      .raw() as unknown as Statement<[string, number, number], EventRow>;
    this.countStatement = r.prepare(
      'SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE position > ? ORDER BY position LIMIT ?)',
    );
  }

  /**
   * Appends join a group commit: every append requested while the previous group waits for the write lock, or in
   * the same turn of the event loop, is written in one transaction with one fsync, each under its own savepoint, so
   * one refused append (wrong expected revision) neither takes the others down nor leaves a row behind. Appends to
   * one stream in one group apply in the order they were asked for, as they would one after the other.
   */
  append<E extends DomainEvent>(
    streamName: string,
    events: readonly EventToAppend<E>[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise<AppendResult>((resolve, reject) => {
      this.queued.push({ streamName, events, expectedRevision, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    let group: QueuedAppend[] = [];
    try {
      await this.db.exclusive(() => {
        group = this.queued.splice(0); // taken with the lock held: whatever arrived while waiting joins
        return this.commitGroup(group);
      });
    } catch (error) {
      for (const request of group) request.reject(error); // no effect on those already settled
    } finally {
      if (this.queued.length > 0) setImmediate(() => void this.flush());
      else this.flushing = false;
    }
  }

  /** Writes a group in one transaction; settles every request once the commit is known. */
  private commitGroup(group: QueuedAppend[]): void {
    const w = this.db.writer;
    const outcomes: Array<
      { ok: true; append: AppendResult; written: readonly RecordedEvent[] } | { ok: false; error: unknown }
    > = [];
    try {
      w.exec('BEGIN IMMEDIATE');
      for (const request of group) {
        w.exec('SAVEPOINT append');
        try {
          const outcome = this.appendInTransaction(request.streamName, request.events, request.expectedRevision);
          w.exec('RELEASE append');
          outcomes.push({ ok: true, ...outcome });
        } catch (error) {
          w.exec('ROLLBACK TO append');
          w.exec('RELEASE append');
          outcomes.push({ ok: false, error });
        }
      }
      w.exec('COMMIT');
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the group is stored.
      if (w.inTransaction) w.exec('ROLLBACK');
      for (const request of group) request.reject(error);
      return;
    }
    const written = outcomes.flatMap((outcome) => (outcome.ok ? outcome.written : []));
    if (written.length > 0) {
      this.tail.add(written);
      this.onAppended?.(written.length);
      this.appended.notify();
    }
    group.forEach((request, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) request.resolve(outcome.append);
      else request.reject(outcome.error);
    });
  }

  private appendInTransaction(
    streamName: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): { append: AppendResult; written: readonly RecordedEvent[] } {
    const previous = this.findById.get(events[0]!.id);
    if (previous) return { append: this.idempotentRepeat(streamName, events, previous), written: [] };

    const current = this.lastRevision.get(streamName)?.revision ?? null;
    const actual = current === null ? 'no_stream' : current;
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && current === null) ||
      (expected === 'stream_exists' && current !== null) ||
      (typeof expected === 'number' && current === expected);
    if (!ok) throw new WrongExpectedRevisionError(streamName, expected, actual);

    let revision = current ?? -1;
    let position = 0;
    const written: RecordedEvent[] = [];
    for (const event of events) {
      revision += 1;
      const row: EventRow = [
        0,
        event.id,
        streamName,
        revision,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      ];
      const info = this.insert.run(row[1], row[2], row[3], row[4], event.metadata.userId, row[5], row[6]);
      position = Number(info.lastInsertRowid);
      row[0] = position;
      // Read back from the stored text, as a reader of the table would get it: nothing the caller still holds.
      written.push(toRecorded(row));
    }
    return { append: { nextExpectedRevision: revision, position }, written };
  }

  /** The first id is already stored: acknowledge only if the whole batch was stored here, in the same order. */
  private idempotentRepeat(
    streamName: string,
    events: readonly EventToAppend[],
    first: { stream: string; revision: number; position: number },
  ): AppendResult {
    let last = first;
    for (let i = 0; i < events.length; i += 1) {
      const stored = i === 0 ? first : this.findById.get(events[i]!.id);
      if (!stored || stored.stream !== streamName || stored.revision !== first.revision + i) {
        throw new WrongExpectedRevisionError(streamName, 'any', first.revision);
      }
      last = stored;
    }
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  async readStream<E extends DomainEvent = DomainEvent>(
    streamName: string,
    options: ReadStreamOptions = {},
  ): Promise<RecordedEvent<E>[]> {
    const rows = this.readStreamStatement.all(streamName, options.fromRevision ?? 0, options.maxCount ?? -1);
    return rows.map((row) => toRecorded(row) as RecordedEvent<E>);
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const head = this.headStatement.get()?.head ?? 0;
    if (head <= options.after) return { events: [], scannedTo: options.after };
    const fromTail = this.tail.read(options, head);
    if (fromTail) return fromTail;
    const types = options.types ?? [];
    const key = `${types.length}:${options.userId === undefined ? 0 : 1}`;
    let statement = this.readAllStatements.get(key);
    if (!statement) {
      const where = ['position > ?', 'position <= ?'];
      if (types.length > 0) where.push(`type IN (${types.map(() => '?').join(', ')})`);
      if (options.userId !== undefined) where.push('user_id = ?');
      statement = this.db.reader
        .prepare(`SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`)
        .raw() as unknown as Statement<unknown[], EventRow>;
      this.readAllStatements.set(key, statement);
    }
    const params: unknown[] = [options.after, head, ...types];
    if (options.userId !== undefined) params.push(options.userId);
    params.push(options.maxCount);
    const rows = statement.all(...params);
    const events = rows.map(toRecorded);
    const scannedTo = rows.length === options.maxCount ? rows[rows.length - 1]![0] : head;
    return { events, scannedTo };
  }

  async headPosition(): Promise<number> {
    return this.headStatement.get()?.head ?? 0;
  }

  async countAfter(position: number, cap: number): Promise<number> {
    return this.countStatement.get(position, cap)?.n ?? 0;
  }

  async ping(): Promise<void> {
    this.db.ping();
  }

  async close(): Promise<void> {
    this.appended.notify();
  }
}

/**
 * The events this process appended last, in position order with no gap, frozen (every reader gets the same
 * objects). After an append every projection, processor and the socket publisher read what it wrote: they find it
 * here instead of each running the query and parsing the rows again. A read is served from the tail only when the
 * tail holds every position from the reader's to the log's head; an append by another process (a command-line
 * tool on the same file) leaves a gap, and reads go to the table until the tail starts again after it.
 */
export class LogTail {
  private events: RecordedEvent[] = [];

  constructor(private readonly capacity: number) {}

  add(written: readonly RecordedEvent[]): void {
    for (const event of written) {
      const last = this.events[this.events.length - 1];
      if (last && event.position !== last.position + 1) this.events = [];
      this.events.push(deepFreeze(event));
    }
    if (this.events.length > 2 * this.capacity) this.events = this.events.slice(-this.capacity);
  }

  /** What `readAll` would return, or null when the tail does not hold all of (after, head]. */
  read(options: ReadAllOptions, head: number): ReadAllResult | null {
    const first = this.events[0];
    const last = this.events[this.events.length - 1];
    if (!first || !last || first.position > options.after + 1 || last.position !== head) return null;
    const types = options.types && options.types.length > 0 ? options.types : null;
    const events: RecordedEvent[] = [];
    for (let i = Math.max(0, options.after + 1 - first.position); i < this.events.length; i += 1) {
      const event = this.events[i]!;
      if (types && !types.includes(event.type)) continue;
      if (options.userId !== undefined && event.metadata.userId !== options.userId) continue;
      events.push(event);
      if (events.length === options.maxCount) return { events, scannedTo: event.position };
    }
    return { events, scannedTo: head };
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function toRecorded([position, id, stream, revision, type, data, metadata]: EventRow): RecordedEvent {
  return upcast({
    id,
    type,
    data: JSON.parse(data) as unknown,
    metadata: JSON.parse(metadata) as RecordedEvent['metadata'],
    streamName: stream,
    revision,
    position,
  });
}
