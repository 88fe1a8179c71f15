import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  type Position,
  type ResolvedEvent,
  START,
  STREAM_EXISTS,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
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

export interface EsdbEventStoreOptions {
  readonly pollIntervalMs?: number;
  readonly onAppended?: (count: number) => void;
}

/** Pages read from $all while filtering on the client (EventStoreDB reads of $all have no server-side filter). */
const PAGE = 1_000;

/**
 * EventStoreDB / KurrentDB adapter. Global positions are the events' commit positions (a JS number holds any log
 * below 8 PiB). Events appended in one call may share a commit position; reads never split such a group, so a
 * checkpoint always sits on a commit boundary and resuming from it means reading after that commit. System events
 * (types starting with `$`) are never returned.
 * A live subscription to $all, started with the store, wakes local readers when another process appends.
 */
export class EsdbEventStore extends EventStore {
  readonly kind = 'eventstoredb';
  readonly appended = new Notifier();
  readonly pollIntervalMs: number;
  private readonly client: EventStoreDBClient;
  private readonly onAppended: ((count: number) => void) | undefined;
  private readonly live: ReturnType<EventStoreDBClient['subscribeToAll']>;

  constructor(connectionString: string, options: EsdbEventStoreOptions = {}) {
    super();
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.pollIntervalMs = options.pollIntervalMs ?? 2_000;
    this.onAppended = options.onAppended;
    this.live = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    this.live.on('data', () => this.appended.notify());
    this.live.on('error', () => undefined); // readers fall back to polling; health reports the store itself
  }

  async append<E extends DomainEvent>(
    streamName: string,
    events: readonly EventToAppend<E>[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    const expected =
      expectedRevision === 'any'
        ? ANY
        : expectedRevision === 'no_stream'
          ? NO_STREAM
          : expectedRevision === 'stream_exists'
            ? STREAM_EXISTS
            : BigInt(expectedRevision);
    try {
      const result = await this.client.appendToStream(
        streamName,
        events.map((event) =>
          jsonEvent({
            id: event.id,
            type: event.type,
            data: event.data as Record<string, unknown>,
            metadata: event.metadata as unknown as Record<string, unknown>,
          }),
        ),
        { expectedRevision: expected },
      );
      this.onAppended?.(events.length);
      this.appended.notify();
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: result.position ? toNumber(result.position.commit) : 0,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(
          streamName,
          expectedRevision,
          typeof actual === 'bigint' ? Number(actual) : 'no_stream',
        );
      }
      throw error;
    }
  }

  async readStream<E extends DomainEvent = DomainEvent>(
    streamName: string,
    options: ReadStreamOptions = {},
  ): Promise<RecordedEvent<E>[]> {
    const events: RecordedEvent<E>[] = [];
    try {
      for await (const resolved of this.client.readStream(streamName, {
        direction: FORWARDS,
        fromRevision: BigInt(options.fromRevision ?? 0),
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
      })) {
        const recorded = toRecorded(resolved);
        if (recorded) events.push(recorded as RecordedEvent<E>);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const types = options.types ? new Set(options.types) : null;
    const events: RecordedEvent[] = [];
    let scannedTo = options.after;
    // Events of one append share a commit position: once maxCount is reached the read goes on to the end of the
    // group, so a checkpoint never falls inside one.
    let closing: bigint | null = null;
    let last: Position | null = null;
    for (;;) {
      const from: Position | typeof START = last ?? (options.after > 0 ? toPosition(options.after) : START);
      let read = 0;
      const page: AsyncIterable<ResolvedEvent> = this.client.readAll({
        fromPosition: from,
        direction: FORWARDS,
        maxCount: PAGE,
      });
      for await (const resolved of page) {
        read += 1;
        const position: Position | undefined = resolved.event?.position;
        if (!position) continue;
        if (last && !after(position, last)) continue; // the page starts on the last event of the previous page
        last = position;
        if (closing !== null && position.commit !== closing) return { events, scannedTo };
        const commit = toNumber(position.commit);
        if (commit <= options.after) continue;
        scannedTo = commit;
        const recorded = toRecorded(resolved);
        if (!recorded) continue;
        if (types && !types.has(recorded.type)) continue;
        if (options.userId !== undefined && recorded.metadata.userId !== options.userId) continue;
        events.push(recorded);
        if (events.length === options.maxCount && closing === null) closing = position.commit;
      }
      if (read < PAGE) return { events, scannedTo };
    }
  }

  async headPosition(): Promise<number> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 50 })) {
      if (resolved.event && !resolved.event.type.startsWith('$') && resolved.event.position) {
        return toNumber(resolved.event.position.commit);
      }
    }
    return 0;
  }

  async countAfter(position: number, cap: number): Promise<number> {
    let count = 0;
    let after = position;
    while (count < cap) {
      const { events, scannedTo } = await this.readAll({ after, maxCount: Math.min(PAGE, cap - count) });
      count += events.length;
      if (events.length === 0 || scannedTo === after) break;
      after = scannedTo;
    }
    return count;
  }

  async ping(): Promise<void> {
    for await (const _ of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) break;
  }

  async close(): Promise<void> {
    await this.live.unsubscribe().catch(() => undefined);
    await this.client.dispose();
    this.appended.notify();
  }
}

function toNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`Log position ${value} exceeds 2^53`);
  return Number(value);
}

function after(a: Position, b: Position): boolean {
  return a.commit > b.commit || (a.commit === b.commit && a.prepare > b.prepare);
}

function toPosition(position: number): Position {
  return { commit: BigInt(position), prepare: BigInt(position) };
}

function isStreamNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { type?: unknown }).type === ErrorType.STREAM_NOT_FOUND
  );
}

function toRecorded(resolved: ResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || !event.isJson || !event.position) return null;
  return upcast({
    id: event.id,
    type: event.type,
    data: event.data as unknown,
    metadata: event.metadata as unknown as RecordedEvent['metadata'],
    streamName: event.streamId,
    revision: Number(event.revision),
    position: toNumber(event.position.commit),
  });
}
