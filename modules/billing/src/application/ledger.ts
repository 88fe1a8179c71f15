import { Injectable } from '@nestjs/common';
import {
  type CommandContext,
  CommandRunner,
  type DomainEvent,
  EventStore,
  KeyedLock,
  ProjectionRunner,
  type RunResult,
} from '@kora/kernel';
import { creditsStream, paymentStream } from '../contracts/streams';
import type { CreditEvent, PaymentEvent } from '../contracts/events';
import { type CreditsCommand, creditsDecider, type CreditsState } from '../domain/credits';
import { type PaymentCommand, paymentDecider, type PaymentState } from '../domain/payment';

/**
 * The kernel's runner, one command at a time per stream in this process, so concurrent requests of one account or
 * payment queue instead of colliding on the expected revision (other processes are still held off by it). The wait
 * for the read models happens after the stream is released.
 */
class QueuedCommands<Command, Event extends DomainEvent, State> extends CommandRunner<Command, Event, State> {
  private readonly lock = new KeyedLock();

  protected override decideAndAppend(
    id: string,
    command: Command,
    context: CommandContext,
  ): Promise<RunResult<Event, State>> {
    return this.lock.run(id, () => super.decideAndAppend(id, command, context));
  }
}

/** `credits-{userId}`: a spend re-checks the balance and a grant that it has not happened, so a conflict is retaken. */
@Injectable()
export class CreditCommands extends QueuedCommands<CreditsCommand, CreditEvent, CreditsState> {
  constructor(store: EventStore, projections: ProjectionRunner) {
    super(store, projections, {
      stream: creditsStream,
      decider: creditsDecider,
      retries: 50,
      readModels: ['credit-accounts', 'usage-history'],
    });
  }
}

/** `payment-{paymentId}`: every payment decision is safe to retake on the fresher stream. */
@Injectable()
export class PaymentCommands extends QueuedCommands<PaymentCommand, PaymentEvent, PaymentState> {
  constructor(store: EventStore, projections: ProjectionRunner) {
    super(store, projections, {
      stream: paymentStream,
      decider: paymentDecider,
      retries: 10,
      readModels: ['payments'],
    });
  }
}

/**
 * Runs the ledger's commands: `credits-{userId}` and `payment-{paymentId}`, each loaded, decided and appended with
 * the expected revision by its command runner. A conflict is decided again on the fresher stream (every billing
 * decision is safe to retake: a spend re-checks the balance, a grant re-checks that it has not happened). Returns
 * once the read models show it.
 */
@Injectable()
export class Ledger {
  constructor(
    private readonly creditCommands: CreditCommands,
    private readonly paymentCommands: PaymentCommands,
  ) {}

  async credits(
    userId: string,
    command: CreditsCommand,
    context: CommandContext,
  ): Promise<{ events: CreditEvent[]; state: CreditsState }> {
    const { events, state } = await this.creditCommands.execute(userId, command, context);
    return { events, state };
  }

  creditsState(userId: string): Promise<CreditsState> {
    return this.creditCommands.state(userId);
  }

  async payment(
    paymentId: string,
    command: PaymentCommand,
    context: CommandContext,
  ): Promise<{ events: PaymentEvent[]; state: PaymentState }> {
    const { events, state } = await this.paymentCommands.execute(paymentId, command, context);
    return { events, state };
  }

  paymentState(paymentId: string): Promise<PaymentState> {
    return this.paymentCommands.state(paymentId);
  }
}
