import type { CommandContext } from './context';
import { type Decider, fold, handleCommand } from './decider';
import type { DomainEvent } from './events';
import type { EventStore } from './event-store';
import type { ProjectionRunner } from './projection-runner';

export interface CommandRunnerOptions<Command, Event extends DomainEvent, State> {
  /** The stream of an id (a module's `trackStream`, `mixStream`...). */
  readonly stream: (id: string) => string;
  readonly decider: Decider<Command, Event, State>;
  /**
   * How many times to decide again on fresher state after a concurrent write (`handleCommand`); only for commands
   * whose decision is safe to take again.
   */
  readonly retries: number;
  /** The read models that show this stream: `execute` waits until they have applied what it appended. */
  readonly readModels: readonly string[];
}

export interface RunOptions {
  /** Wait until the read models show the change (default), or return as soon as it is appended. */
  readonly settle?: boolean;
}

export interface RunResult<Event extends DomainEvent, State> {
  /** The events appended (none when the decision was a no-op). */
  readonly events: Event[];
  readonly state: State;
  /** The log position of the append, or null when nothing was appended. */
  readonly position: number | null;
}

/** How long `execute` waits for the read models before answering anyway. */
const SETTLE_MS = 5_000;

/**
 * Runs the commands of one family of streams, the same way for every module: load `stream(id)`, decide, append with
 * the expected revision (deciding again on a concurrent write, `retries` times), then, unless told not to, wait until
 * the family's read models show the change so the caller's next read sees it. Modules subclass it as an injectable
 * (`TrackCommands`, `MixCommands`, `AccountCommands`, billing's `CreditCommands` and `PaymentCommands`,
 * `NotificationCommands`) with their stream, decider and read models.
 */
export class CommandRunner<Command, Event extends DomainEvent, State> {
  constructor(
    protected readonly store: EventStore,
    protected readonly projections: ProjectionRunner,
    private readonly options: CommandRunnerOptions<Command, Event, State>,
  ) {}

  async execute(
    id: string,
    command: Command,
    context: CommandContext,
    run: RunOptions = {},
  ): Promise<RunResult<Event, State>> {
    const result = await this.decideAndAppend(id, command, context);
    if (result.position !== null && run.settle !== false) await this.settle(result.position);
    return result;
  }

  /**
   * Loads, decides and appends, without waiting for the read models: what a subclass wraps to act around the
   * append itself (hold a lock, apply an event at once) while `execute` keeps the wait after it.
   */
  protected async decideAndAppend(
    id: string,
    command: Command,
    context: CommandContext,
  ): Promise<RunResult<Event, State>> {
    const { stream, decider, retries } = this.options;
    const result = await handleCommand(this.store, stream(id), decider, command, context, { retries });
    return { events: result.events, state: result.state, position: result.append?.position ?? null };
  }

  /** Waits (at most 5 s) until the read models have applied the log up to `position`. */
  async settle(position: number): Promise<void> {
    await this.projections.waitFor(position, SETTLE_MS, this.options.readModels);
  }

  /** The current state of `stream(id)`, folded from its events. */
  async state(id: string): Promise<State> {
    return fold(this.options.decider, await this.store.readStream<Event>(this.options.stream(id)));
  }
}
