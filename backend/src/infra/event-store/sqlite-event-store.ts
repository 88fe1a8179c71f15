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
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { GroupCommit } from '../sqlite/group-commit';
import { run, type SqliteDatabase } from '../sqlite/sqlite-database';

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
  /**
   * For a store that reads what another connection appends (the projections' thread): `readAll` first reads the
   * log's new end into the tail kept in memory, once for all its readers, which then read it from there.
   */
  readonly tailsOtherWriters?: boolean;
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

/** How many events of the streams read last a store keeps in memory for `readStream` (see `StreamCache`). */
const CACHED_STREAM_EVENTS = 20_000;

interface ReadStatements {
  readonly connection: Database.Database;
  readonly head: Statement<[], { head: number | null }>;
  readonly stream: Statement<[string, number, number], EventRow>;
  readonly range: Statement<[number, number], EventRow>;
  readonly count: Statement<[number, number], { n: number }>;
  /** `readAll`'s, by the shape of its filter. */
  readonly all: Map<string, Statement<unknown[], EventRow>>;
}

function readStatements(connection: Database.Database): ReadStatements {
  return {
    connection,
    head: connection.prepare('SELECT max(position) AS head FROM events'),
    stream: connection
      .prepare(`SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`)
      .raw() as unknown as Statement<[string, number, number], EventRow>,
    range: connection
      .prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position`)
      .raw() as unknown as Statement<[number, number], EventRow>,
    count: connection.prepare(
      'SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE position > ? ORDER BY position LIMIT ?)',
    ),
    all: new Map(),
  };
}

type AppendOutcome =
  { ok: true; append: AppendResult; written: readonly RecordedEvent[] } | { ok: false; error: unknown };

interface QueuedAppend {
  readonly streamName: string;
  readonly events: readonly EventToAppend[];
  readonly expectedRevision: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The embedded event log: one SQLite table, positions from an AUTOINCREMENT key (never reused), revisions unique
 * per stream. Appends run in an IMMEDIATE transaction under the process-wide write lock, and a resolved append has
 * been fsynced; concurrent appends share one such commit (see `append`), and the fsync runs off the event loop while
 * the next group commits. Until it is done, what a group wrote is invisible to `readAll` and `headPosition`, and
 * `readStream` waits for it. Re-appending events whose ids are already in the stream at the same place is
 * acknowledged without writing again (idempotent retries), as EventStoreDB does.
 */
export class SqliteEventStore extends EventStore {
  readonly kind = 'sqlite';
  readonly appended = new Notifier();
  readonly pollIntervalMs: number;
  private readonly onAppended: ((count: number) => void) | undefined;
  private readonly tailsOtherWriters: boolean;
  private readonly insert: Statement;
  private readonly lastRevision: Statement<[string], { revision: number | null }>;
  private readonly findById: Statement<[string], { stream: string; revision: number; position: number }>;
  private readonly lastPosition: Statement<[], number | null>;
  private readonly appends: GroupCommit<QueuedAppend, AppendOutcome>;
  private readonly tail = new LogTail(TAIL_EVENTS);
  /** The first position of each group committed but not yet fsynced, in commit order. */
  private readonly notDurable: number[] = [];
  private readonly durableWaiters: Array<() => void> = [];
  private readonly streams = new StreamCache(CACHED_STREAM_EVENTS);
  /** Changes when another connection (another process) commits to the file. */
  private readonly dataVersion: Statement<[], number>;
  private cachedVersion: number | undefined;
  private versionChecked = false;
  /** The log's last position, when known from memory (see `followOtherWriters`). */
  private head: number | null = null;
  /** The statements that read, prepared on both connections (see `SqliteDatabase.readConnection`). */
  private readonly reads = new Map<Database.Database, ReadStatements>();

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteEventStoreOptions = {},
  ) {
    super();
    this.appends = new GroupCommit(
      db,
      (group) => this.commitGroup(group),
      (group, outcomes) => this.settle(group, outcomes),
    );
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.onAppended = options.onAppended;
    this.tailsOtherWriters = options.tailsOtherWriters === true;
    db.writer.exec(SCHEMA);
    const w = db.writer;
    this.insert = w.prepare(
      'INSERT INTO events (id, stream, revision, type, user_id, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.lastRevision = w.prepare('SELECT max(revision) AS revision FROM events WHERE stream = ?');
    this.findById = w.prepare('SELECT stream, revision, position FROM events WHERE id = ?');
    this.lastPosition = w.prepare('SELECT max(position) FROM events').pluck() as Statement<[], number | null>;
    this.dataVersion = w.prepare('PRAGMA data_version').pluck() as Statement<[], number>;
    for (const connection of new Set([db.writer, db.reader])) this.reads.set(connection, readStatements(connection));
  }

  /**
   * Appends join a group commit: every append requested while the previous group waits for the write lock, or in
   * the same turn of the event loop, is written in one transaction with one fsync, each append of several events
   * under its own savepoint, so one refused append (wrong expected revision) neither takes the others down nor leaves
   * a row behind. Appends to one stream in one group apply in the order they were asked for, as they would one after
   * the other.
   */
  append<E extends DomainEvent>(
    streamName: string,
    events: readonly EventToAppend<E>[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise<AppendResult>((resolve, reject) => {
      this.appends.enqueue({ streamName, events, expectedRevision, resolve, reject });
    });
  }

  private commitGroup(group: QueuedAppend[]): AppendOutcome[] {
    const w = this.db.writer;
    const outcomes: AppendOutcome[] = [];
    try {
      run(w, 'BEGIN IMMEDIATE');
      // With the write lock held, what another process committed before it is known, so the cached streams' ends
      // can stand for their last revisions (see `revisionOf`).
      this.dropIfOtherWriters();
      const revisions = new Map<string, number>(); // each stream's last revision written by this group
      for (const request of group) {
        // A single INSERT that fails writes nothing; only a batch needs a savepoint to take back its first rows.
        const batch = request.events.length > 1;
        if (batch) run(w, 'SAVEPOINT append');
        try {
          const outcome = this.appendInTransaction(request, revisions);
          if (batch) run(w, 'RELEASE append');
          outcomes.push({ ok: true, ...outcome });
        } catch (error) {
          // SQLite ends the whole transaction on some errors (disk full, I/O): the group then fails together, before
          // a later append could run outside it.
          if (!w.inTransaction) throw error;
          if (batch) {
            run(w, 'ROLLBACK TO append');
            run(w, 'RELEASE append');
          }
          outcomes.push({ ok: false, error });
        }
      }
      run(w, 'COMMIT');
    } catch (error) {
      if (w.inTransaction) run(w, 'ROLLBACK');
      throw error;
    }
    const written = outcomes.flatMap((outcome) => (outcome.ok ? outcome.written : []));
    if (written.length > 0) {
      if (this.head !== null) this.head = Math.max(this.head, written[written.length - 1]!.position);
      this.notDurable.push(written[0]!.position);
      this.tail.add(written);
      this.streams.add(written);
    }
    return outcomes;
  }

  /** Once the group is durable: answers every append of it and wakes the readers of the log. */
  private async settle(group: readonly QueuedAppend[], outcomes: readonly AppendOutcome[]): Promise<void> {
    const written = outcomes.reduce((count, outcome) => count + (outcome.ok ? outcome.written.length : 0), 0);
    try {
      await this.db.durable();
    } catch (error) {
      // The fsync failed: what was written may not survive, and no append of the group is acknowledged.
      this.durableNow(written);
      group.forEach((request) => request.reject(error));
      return;
    }
    this.durableNow(written);
    if (written > 0) {
      this.onAppended?.(written);
      this.appended.notify();
    }
    group.forEach((request, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) request.resolve(outcome.append);
      else request.reject(outcome.error);
    });
  }

  private reading(): ReadStatements {
    return this.reads.get(this.db.readConnection)!;
  }

  /** The oldest group not yet durable is now settled: groups become durable in the order they committed. */
  private durableNow(written: number): void {
    if (written === 0) return;
    this.notDurable.shift();
    const waiting = this.durableWaiters.splice(0);
    for (const resolve of waiting) resolve();
  }

  /** Resolves when the next group becomes durable. */
  private nextDurable(): Promise<void> {
    return new Promise((resolve) => this.durableWaiters.push(resolve));
  }

  /** The log's head as readers may see it: below the first position not yet durable. */
  private visibleHead(): number {
    this.followOtherWriters();
    this.head ??= this.reading().head.get()?.head ?? 0;
    return this.notDurable.length > 0 ? Math.min(this.head, this.notDurable[0]! - 1) : this.head;
  }

  /**
   * What this process knows of the file from memory (the cached streams, the head) holds until another process (a
   * command-line tool on the same file) commits to it; then it is dropped and read again. Checked once per turn of
   * the event loop, so such a write is seen from the next turn.
   */
  private followOtherWriters(): void {
    if (this.versionChecked) return;
    this.versionChecked = true;
    setImmediate(() => (this.versionChecked = false));
    this.dropIfOtherWriters();
  }

  /**
   * Drops what is known from memory if another connection has appended to the log since the last look. A commit by
   * another connection that left the log's last position where this process knows it wrote read models only (the
   * projections' thread, `npm run projections`): positions are never reused, so any append moves it.
   */
  private dropIfOtherWriters(): void {
    const version = this.dataVersion.get();
    if (version === this.cachedVersion) return;
    this.cachedVersion = version;
    const last = this.lastPosition.get() ?? 0;
    if (last === this.head) return;
    this.streams.clear();
    this.head = last;
  }

  /**
   * The last revision of a stream, inside the group's transaction: what an earlier append of the group wrote, else the
   * end of the cached stream (whole, and current once `dropIfOtherWriters` has run under the lock), else the table.
   */
  private revisionOf(streamName: string, revisions: ReadonlyMap<string, number>): number | null {
    const inGroup = revisions.get(streamName);
    if (inGroup !== undefined) return inGroup;
    const cached = this.streams.get(streamName);
    if (cached.length > 0) return cached[cached.length - 1]!.revision;
    return this.lastRevision.get(streamName)?.revision ?? null;
  }

  /**
   * One append of a group, in its transaction. The common case costs the INSERTs alone: a repeated append (the same
   * event ids, already stored) is recognised when it fails, by its wrong expected revision or by the unique index on
   * the ids, and only then are the ids looked up.
   */
  private appendInTransaction(
    { streamName, events, expectedRevision: expected }: QueuedAppend,
    revisions: Map<string, number>,
  ): { append: AppendResult; written: readonly RecordedEvent[] } {
    const current = this.revisionOf(streamName, revisions);
    const actual = current === null ? 'no_stream' : current;
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && current === null) ||
      (expected === 'stream_exists' && current !== null) ||
      (typeof expected === 'number' && current === expected);
    if (!ok) {
      const previous = this.findById.get(events[0]!.id);
      if (previous) return { append: this.idempotentRepeat(streamName, events, previous), written: [] };
      throw new WrongExpectedRevisionError(streamName, expected, actual);
    }

    let revision = current ?? -1;
    let position = 0;
    const rows: RecordedEvent[] = [];
    for (const [i, event] of events.entries()) {
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
      let info: Database.RunResult;
      try {
        info = this.insert.run(row[1], row[2], row[3], row[4], event.metadata.userId, row[5], row[6]);
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint === 'id' && i === 0) {
          const previous = this.findById.get(event.id)!;
          return { append: this.idempotentRepeat(streamName, events, previous), written: [] };
        }
        if (constraint === null) throw error;
        // An id stored elsewhere, or a revision taken: this append cannot be what is stored.
        this.streams.set(streamName, []);
        throw new WrongExpectedRevisionError(streamName, expected, actual);
      }
      position = Number(info.lastInsertRowid);
      row[0] = position;
      // Read back from the stored text, as a reader of the table would get it: nothing the caller still holds.
      rows.push(toRecorded(row));
    }
    revisions.set(streamName, revision);
    return { append: { nextExpectedRevision: revision, position }, written: rows };
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
    const events =
      options.fromRevision !== undefined || options.maxCount !== undefined
        ? this.reading()
            .stream.all(streamName, options.fromRevision ?? 0, options.maxCount ?? -1)
            .map((row) => toRecorded(row))
        : this.wholeStream(streamName).slice();
    // A decision never rests on an event that a power cut could still take back.
    const last = events[events.length - 1];
    while (last && this.notDurable.length > 0 && last.position >= this.notDurable[0]!) await this.nextDurable();
    return events as RecordedEvent<E>[];
  }

  /**
   * The whole stream, from the cache when it holds it and nothing has been written since by another process (a
   * command-line tool on the same file): this process's own appends extend the cache as they commit.
   */
  private wholeStream(streamName: string): readonly RecordedEvent[] {
    this.followOtherWriters();
    let events = this.streams.get(streamName);
    if (events.length === 0) {
      events = this.reading()
        .stream.all(streamName, 0, -1)
        .map((row) => deepFreeze(toRecorded(row)));
      this.streams.set(streamName, events);
    }
    return events;
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const head = this.visibleHead();
    if (head <= options.after) return { events: [], scannedTo: options.after };
    if (this.tailsOtherWriters) this.extendTail(head);
    const fromTail = this.tail.read(options, head);
    if (fromTail) return fromTail;
    const types = options.types ?? [];
    const reads = this.reading();
    const key = `${types.length}:${options.userId === undefined ? 0 : 1}`;
    let statement = reads.all.get(key);
    if (!statement) {
      const where = ['position > ?', 'position <= ?'];
      if (types.length > 0) where.push(`type IN (${types.map(() => '?').join(', ')})`);
      if (options.userId !== undefined) where.push('user_id = ?');
      statement = reads.connection
        .prepare(`SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`)
        .raw() as unknown as Statement<unknown[], EventRow>;
      reads.all.set(key, statement);
    }
    const params: unknown[] = [options.after, head, ...types];
    if (options.userId !== undefined) params.push(options.userId);
    params.push(options.maxCount);
    const rows = statement.all(...params);
    const events = rows.map(toRecorded);
    const scannedTo = rows.length === options.maxCount ? rows[rows.length - 1]![0] : head;
    return { events, scannedTo };
  }

  /** Reads into the tail what was appended up to `head` after its end (at most its capacity, the latest). */
  private extendTail(head: number): void {
    const end = this.tail.end;
    if (end !== null && end >= head) return;
    const from = end === null || head - end > TAIL_EVENTS ? Math.max(0, head - TAIL_EVENTS) : end;
    this.tail.add(this.reading().range.all(from, head).map(toRecorded));
  }

  async headPosition(): Promise<number> {
    return this.visibleHead();
  }

  async countAfter(position: number, cap: number): Promise<number> {
    return this.reading().count.get(position, cap)?.n ?? 0;
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

  /** The position of the last event held, null when none is. */
  get end(): number | null {
    return this.events[this.events.length - 1]?.position ?? null;
  }

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
    if (!first || !last || first.position > options.after + 1 || last.position < head) return null;
    const types = options.types && options.types.length > 0 ? options.types : null;
    const events: RecordedEvent[] = [];
    for (let i = Math.max(0, options.after + 1 - first.position); i < this.events.length; i += 1) {
      const event = this.events[i]!;
      if (event.position > head) break; // written, not durable yet
      if (types && !types.includes(event.type)) continue;
      if (options.userId !== undefined && event.metadata.userId !== options.userId) continue;
      events.push(event);
      if (events.length === options.maxCount) return { events, scannedTo: event.position };
    }
    return { events, scannedTo: head };
  }
}

/**
 * The events of the streams read or appended last, whole and frozen, so that a command deciding on a stream loaded a
 * moment ago does not read and parse it again. Bounded by a number of events; the streams used least recently go
 * first. An append extends a cached stream only when it follows the cached end (otherwise the stream is dropped and
 * read again); the store drops the whole cache when another process writes to the file.
 */
export class StreamCache {
  private readonly streams = new Map<string, readonly RecordedEvent[]>();
  private size = 0;

  constructor(private readonly capacity: number) {}

  /** A cached stream (empty when none is cached); marks it used. */
  get(stream: string): readonly RecordedEvent[] {
    const events = this.streams.get(stream);
    if (!events) return [];
    this.streams.delete(stream);
    this.streams.set(stream, events);
    return events;
  }

  set(stream: string, events: readonly RecordedEvent[]): void {
    this.drop(stream);
    if (events.length === 0 || events.length > this.capacity) return;
    this.streams.set(stream, events);
    this.size += events.length;
    for (const [oldest, kept] of this.streams) {
      if (this.size <= this.capacity) break;
      this.streams.delete(oldest);
      this.size -= kept.length;
    }
  }

  /** Events just committed (frozen): appended to their stream when it is cached and they follow its end. */
  add(written: readonly RecordedEvent[]): void {
    for (const event of written) {
      const cached = this.streams.get(event.streamName);
      if (!cached) continue;
      if (event.revision === cached.length) this.set(event.streamName, [...cached, event]);
      else this.drop(event.streamName);
    }
  }

  clear(): void {
    this.streams.clear();
    this.size = 0;
  }

  private drop(stream: string): void {
    const events = this.streams.get(stream);
    if (!events) return;
    this.streams.delete(stream);
    this.size -= events.length;
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

/** Which unique index an INSERT into the log broke: the event ids, a stream's revisions, or none (another error). */
function uniqueViolation(error: unknown): 'id' | 'revision' | null {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') return null;
  return error.message.includes('events.id') ? 'id' : 'revision';
}
