import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { UnlockTrack } from '@kora/audio';
import { UnlockMix } from '@kora/mixing';
import {
  CLOCK,
  type Clock,
  CodedError,
  EventStore,
  ProjectionRunner,
  type RecordedEvent,
  streamId,
} from '@kora/kernel';
import { CommandContexts, ProcessorRegistry } from '@kora/kernel/nest';
import type { CreditSpent, PaymentCaptured, PackService } from '../contracts/events';
import { cycleEnd } from '../domain/catalogue';
import { BILLING_OPTIONS, type BillingOptions } from './billing-options';
import { Ledger } from './ledger';

/**
 * What a paid purchase gives, exactly once: a captured PACK payment records `PackPurchased` on the buyer's credits
 * stream (the credits decider refuses a second grant of the same payment), a captured TRACK payment or a spent credit
 * unlocks the track or mix (unlocking twice changes nothing). The capture and spend handlers call it at once; a
 * processor calls it again for every `PaymentCaptured` and `CreditSpent` in the log, so a crash between the two
 * appends is repaired at the next start.
 */
@Injectable()
export class Grants implements OnModuleInit {
  constructor(
    private readonly ledger: Ledger,
    private readonly commands: CommandBus,
    private readonly contexts: CommandContexts,
    private readonly registry: ProcessorRegistry,
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  onModuleInit(): void {
    if (!this.options.processors) return;
    this.registry.register({
      name: 'billing-grants',
      handles: ['PaymentCaptured', 'CreditSpent'],
      handle: async (recorded) => {
        const event = recorded as RecordedEvent<PaymentCaptured | CreditSpent>;
        try {
          if (event.type === 'PaymentCaptured') await this.grantPayment(streamId(event.streamName));
          else
            await this.unlock(
              event.metadata.userId,
              event.data.service,
              event.data.trackId,
              'credit',
              event.data.spendId,
            );
        } catch (error) {
          // A refusal (the track was deleted since) will not change by retrying: operators refund it.
          if (!(error instanceof CodedError)) throw error;
        }
      },
    });
  }

  /** Grants a captured payment (no-op unless it is captured, and when already granted). */
  async grantPayment(paymentId: string): Promise<void> {
    const payment = await this.ledger.paymentState(paymentId);
    const intent = payment.intent;
    if (!intent || payment.status !== 'paid') return;
    if (intent.kind === 'PACK') {
      const start = this.clock.now();
      const cycle = intent.billingCycle ?? 'MONTHLY';
      await this.ledger.credits(
        intent.ownerId,
        {
          type: 'PurchasePack',
          paymentId,
          planId: intent.planId,
          planName: intent.planName,
          service: intent.service as PackService,
          billingCycle: cycle,
          credits: intent.credits,
          startDate: start.toISOString(),
          endDate: cycleEnd(start, cycle).toISOString(),
          price: intent.price,
          now: start.toISOString(),
        },
        this.contexts.forSystem(intent.ownerId, paymentId),
      );
      return;
    }
    if (intent.trackId) await this.unlock(intent.ownerId, intent.service, intent.trackId, 'payment', paymentId);
  }

  /** Unlocks a track (or a mix session for AI_MIXING) paid for by `causationId`. */
  async unlock(
    userId: string,
    service: string,
    targetId: string,
    via: 'payment' | 'credit',
    causationId: string,
  ): Promise<void> {
    const now =
      service === 'AI_MIXING'
        ? await this.commands.execute<UnlockMix, boolean>(new UnlockMix(userId, targetId, via, causationId))
        : await this.commands.execute<UnlockTrack, boolean>(new UnlockTrack(userId, targetId, via, causationId));
    // Unlocked a moment ago by the other path (the processor, or a concurrent request): read your writes all the same.
    if (!now) {
      await this.projections.waitFor(await this.store.headPosition(), 5_000, ['tracks', 'mix-sessions']);
    }
  }
}
