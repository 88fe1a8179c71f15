import { Injectable } from '@nestjs/common';
import { type CommandContext, EventStore, handleCommand, ProjectionRunner } from '@kora/kernel';
import { creditsStream, paymentStream } from '../contracts/streams';
import type { CreditEvent, PaymentEvent } from '../contracts/events';
import { type CreditsCommand, creditsDecider, type CreditsState } from '../domain/credits';
import { type PaymentCommand, paymentDecider, type PaymentState } from '../domain/payment';
import { KeyedLock } from './keyed-lock';

/**
 * Runs the ledger's commands: `credits-{userId}` and `payment-{paymentId}`, each loaded, decided and appended with
 * the expected revision. A conflict is decided again on the fresher stream (every billing decision is safe to retake:
 * a spend re-checks the balance, a grant re-checks that it has not happened). Returns once the read models show it.
 */
@Injectable()
export class Ledger {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
  ) {}

  async credits(
    userId: string,
    command: CreditsCommand,
    context: CommandContext,
  ): Promise<{ events: CreditEvent[]; state: CreditsState }> {
    const result = await this.lock.run(`credits-${userId}`, () =>
      handleCommand(this.store, creditsStream(userId), creditsDecider, command, context, { retries: 50 }),
    );
    if (result.append) {
      await this.projections.waitFor(result.append.position, 5_000, ['credit-accounts', 'usage-history']);
    }
    return { events: result.events, state: result.state };
  }

  async creditsState(userId: string): Promise<CreditsState> {
    const events = await this.store.readStream<CreditEvent>(creditsStream(userId));
    return events.reduce(creditsDecider.evolve, creditsDecider.initialState());
  }

  async payment(
    paymentId: string,
    command: PaymentCommand,
    context: CommandContext,
  ): Promise<{ events: PaymentEvent[]; state: PaymentState }> {
    const result = await this.lock.run(`payment-${paymentId}`, () =>
      handleCommand(this.store, paymentStream(paymentId), paymentDecider, command, context, { retries: 10 }),
    );
    if (result.append) await this.projections.waitFor(result.append.position, 5_000, ['payments']);
    return { events: result.events, state: result.state };
  }

  async paymentState(paymentId: string): Promise<PaymentState> {
    const events = await this.store.readStream<PaymentEvent>(paymentStream(paymentId));
    return events.reduce(paymentDecider.evolve, paymentDecider.initialState());
  }
}
