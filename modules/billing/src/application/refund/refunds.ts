import { Inject, Injectable } from '@nestjs/common';
import { IDS, type IdGenerator } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import type { Money, PaymentKind } from '../../contracts/events';
import { paymentNotFound } from '../../domain/errors';
import { Ledger } from '../ledger';

export interface RefundOutcome {
  paymentId: string;
  ownerId: string;
  kind: PaymentKind;
  amount: Money;
  /** False when it was refunded already (running the command again changes nothing). */
  refundedNow: boolean;
  /** Credits taken back now (a PACK payment's credits not spent, expired or revoked yet). */
  creditsRevoked: number;
  /** The track or mix session a TRACK payment unlocked: it stays unlocked. */
  trackId: string | null;
}

/**
 * Records a refund made at the provider (`PaymentRefunded` on `payment-{paymentId}`, for the price recorded at sale),
 * then takes back the credits the payment granted that were not spent (`CreditsRevoked`). Credits already spent stay
 * spent and what they unlocked stays unlocked; a refunded single-track payment leaves its track unlocked (the result
 * was delivered and may have been downloaded: the refund returns the money, it cannot take the file back). Each step
 * is idempotent, so running it again after an interruption completes it.
 */
@Injectable()
export class Refunds {
  constructor(
    private readonly ledger: Ledger,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  /**
   * `provider`: reported by the provider (a refund made in its dashboard, a chargeback with `reversal`), with the
   * amount that went back; otherwise an operator's command for the price.
   */
  async refund(
    paymentId: string,
    reason: string,
    refundId?: string,
    reported?: { amount: Money | null; reversal: boolean },
  ): Promise<RefundOutcome> {
    const state = await this.ledger.paymentState(paymentId);
    const intent = state.intent;
    if (!intent) throw paymentNotFound();
    const context = this.contexts.forSystem(intent.ownerId, paymentId);
    const { events } = await this.ledger.payment(
      paymentId,
      {
        type: 'Refund',
        refundId: refundId ?? `manual-${this.ids.newId()}`,
        reason,
        ...(reported
          ? {
              source: 'provider' as const,
              reversal: reported.reversal,
              ...(reported.amount ? { amount: reported.amount } : {}),
            }
          : {}),
      },
      context,
    );
    let creditsRevoked = 0;
    if (intent.kind === 'PACK') {
      const credits = await this.ledger.creditsState(intent.ownerId);
      if (credits.packs.has(paymentId)) {
        const revoked = await this.ledger.credits(intent.ownerId, { type: 'RevokeCredits', paymentId }, context);
        for (const event of revoked.events) if (event.type === 'CreditsRevoked') creditsRevoked += event.data.credits;
      }
    }
    return {
      paymentId,
      ownerId: intent.ownerId,
      kind: intent.kind,
      amount: intent.price,
      refundedNow: events.length > 0,
      creditsRevoked,
      trackId: intent.trackId,
    };
  }
}
