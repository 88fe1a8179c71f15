import { ConcurrencyConflictError } from './errors';
import { type AppendResult, type EventStore, WrongExpectedRevisionError } from './event-store';
import type { CommandContext } from './context';
import { toAppend } from './context';
import type { DomainEvent, RecordedEvent } from './events';

/**
 * A pure decision model: state is folded from past events; `decide` returns the new events for a command, or
 * throws a coded error when a business rule refuses it. No I/O, no clock, no randomness: those come in the command.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Event[];
}

export interface HandledCommand<Event extends DomainEvent, State> {
  /** The events just appended (empty when the decision was a no-op, e.g. an idempotent repeat). */
  readonly events: Event[];
  readonly state: State;
  /** Absent when nothing was appended. */
  readonly append?: AppendResult;
}

export interface HandleOptions {
  /**
   * How many times to re-read and re-decide after a concurrent write. Only for commands whose decision is safe to
   * take again on fresher state; 0 surfaces the conflict as a 409.
   */
  readonly retries?: number;
}

/** Folds a stream's recorded events into state. */
export function fold<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: readonly RecordedEvent<Event>[],
): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event as unknown as Event);
  return state;
}

/**
 * The command handler's whole job: load the stream, decide, append with the expected revision. A conflict is
 * retried by deciding again when `retries` allows it, and otherwise surfaces as `ConcurrencyConflictError` (409).
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  streamName: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  context: CommandContext,
  options: HandleOptions = {},
): Promise<HandledCommand<Event, State>> {
  const retries = options.retries ?? 0;
  for (let attempt = 0; ; attempt += 1) {
    const history = await store.readStream<Event>(streamName);
    const state = fold(decider, history);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state };
    const expected = history.length === 0 ? 'no_stream' : history[history.length - 1]!.revision;
    try {
      const append = await store.append(streamName, toAppend(events, context), expected);
      const next = events.reduce(decider.evolve, state);
      return { events, state: next, append };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= retries) {
        throw new ConcurrencyConflictError('This item was changed by another request. Reload it and try again.', {
          stream: streamName,
        });
      }
    }
  }
}
