import { describe, expect, it } from '@jest/globals';
import { CommandRunner } from './command-runner';
import type { CommandContext } from './context';
import type { Decider } from './decider';
import { ConcurrencyConflictError } from './errors';
import { type EventStore, type ExpectedRevision, WrongExpectedRevisionError } from './event-store';
import type { EventToAppend, RecordedEvent } from './events';
import type { ProjectionRunner } from './projection-runner';

type Added = { type: 'Added'; data: { by: number } };
type Add = { by: number };

const counter: Decider<Add, Added, number> = {
  initialState: () => 0,
  evolve: (total, event) => total + event.data.by,
  decide: (command) => (command.by === 0 ? [] : [{ type: 'Added', data: { by: command.by } }]),
};

const context: CommandContext = {
  userId: 'u1',
  correlationId: 'c1',
  causationId: 'c1',
  clock: { now: () => new Date('2026-01-01T00:00:00Z') },
  ids: { newId: () => 'id' },
};

/** A log of streams in memory: just what the runner uses, with a way to slip a concurrent write in. */
function memory() {
  const streams = new Map<string, RecordedEvent<Added>[]>();
  let position = 0;
  const appends: Array<{ stream: string; expected: ExpectedRevision }> = [];
  let before: (() => void) | null = null;
  const write = (stream: string, events: readonly EventToAppend<Added>[]) => {
    const list = streams.get(stream) ?? [];
    for (const event of events) {
      position += 1;
      list.push({ ...event, streamName: stream, revision: list.length, position } as RecordedEvent<Added>);
    }
    streams.set(stream, list);
    return { nextExpectedRevision: list.length - 1, position };
  };
  const store = {
    async readStream(stream: string) {
      return [...(streams.get(stream) ?? [])];
    },
    async append(stream: string, events: readonly EventToAppend<Added>[], expected: ExpectedRevision) {
      appends.push({ stream, expected });
      const slip = before;
      before = null;
      slip?.();
      const list = streams.get(stream) ?? [];
      const actual = list.length === 0 ? 'no_stream' : list.length - 1;
      if (actual !== expected) throw new WrongExpectedRevisionError(stream, expected, actual);
      return write(stream, events);
    },
  };
  const waits: Array<{ position: number; names: readonly string[] | undefined }> = [];
  const projections = {
    async waitFor(at: number, _timeoutMs?: number, names?: readonly string[]) {
      waits.push({ position: at, names });
      return true;
    },
  };
  return {
    store: store as unknown as EventStore,
    projections: projections as unknown as ProjectionRunner,
    appends,
    waits,
    write,
    beforeNextAppend: (fn: () => void) => (before = fn),
  };
}

const runner = (log: ReturnType<typeof memory>, retries = 1) =>
  new CommandRunner(log.store, log.projections, {
    stream: (id) => `counter-${id}`,
    decider: counter,
    retries,
    readModels: ['counters'],
  });

describe('the command runner', () => {
  it('decides on the stream, appends with the expected revision, then waits for its read models', async () => {
    const log = memory();
    const commands = runner(log);
    const first = await commands.execute('a', { by: 2 }, context);
    const second = await commands.execute('a', { by: 3 }, context);
    expect(first).toMatchObject({ events: [{ type: 'Added', data: { by: 2 } }], state: 2, position: 1 });
    expect(second).toMatchObject({ state: 5, position: 2 });
    expect(log.appends).toEqual([
      { stream: 'counter-a', expected: 'no_stream' },
      { stream: 'counter-a', expected: 0 },
    ]);
    expect(log.waits).toEqual([
      { position: 1, names: ['counters'] },
      { position: 2, names: ['counters'] },
    ]);
    expect(await commands.state('a')).toBe(5);
  });

  it('does not wait when told not to, nor when nothing was appended', async () => {
    const log = memory();
    const commands = runner(log);
    expect(await commands.execute('a', { by: 1 }, context, { settle: false })).toMatchObject({ position: 1 });
    expect(await commands.execute('a', { by: 0 }, context)).toEqual({ events: [], state: 1, position: null });
    expect(log.waits).toEqual([]);
  });

  it('decides again on fresher state after a concurrent write, as many times as allowed', async () => {
    const log = memory();
    log.beforeNextAppend(() => log.write('counter-a', [{ type: 'Added', data: { by: 10 } } as EventToAppend<Added>]));
    expect(await runner(log, 1).execute('a', { by: 1 }, context)).toMatchObject({ state: 11, position: 2 });

    const strict = memory();
    strict.beforeNextAppend(() =>
      strict.write('counter-a', [{ type: 'Added', data: { by: 10 } } as EventToAppend<Added>]),
    );
    await expect(runner(strict, 0).execute('a', { by: 1 }, context)).rejects.toBeInstanceOf(ConcurrencyConflictError);
  });
});
