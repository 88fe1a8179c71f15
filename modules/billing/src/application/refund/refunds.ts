import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, IDS, type IdGenerator } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import type { Money, PaymentKind } from '../../contracts/events';
import { PaymentNotFoundError } from '../../domain/errors';
import { Ledger } from '../ledger';

export interface RefundOutcome {
  paymentId: string;
  ownerId: string;
  kind: PaymentKind;
  /** What this refund gave back; when it recorded nothing, what the payment's refunds gave back in all. */
  amount: Money;
  /** False when it was recorded already (the same refund id again, or a full refund of a payment refunded in full). */
  refundedNow: boolean;
  /** Credits taken back now (a PACK payment's credits not spent, expired or revoked yet). */
  creditsRevoked: number;
  /** The track or mix session a TRACK payment unlocked: it stays unlocked. */
  trackId: string | null;
}

/**
 * Records a refund made at the provider (`PaymentRefunded` on `payment-{paymentId}`: what the provider reports went
 * back, else all of the capture not refunded yet), then takes back the credits the payment granted that were not
 * spent (`CreditsRevoked`). Refunds add up (a partial refund, then a chargeback), each recorded once by its refund
 * id, never beyond the capture; the credits go at the first, and a later one has none left to take. Credits already
 * spent stay spent and what they unlocked stays unlocked; a refunded single-track payment leaves its track unlocked
 * (the result was delivered and may have been downloaded: the refund returns the money, it cannot take the file
 * back). Each step is idempotent, so running it again after an interruption completes it.
 */
@Injectable()
export class Refunds {
  constructor(
    private readonly ledger: Ledger,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
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
    if (!intent) throw new PaymentNotFoundError();
    const context = this.contexts.forSystem(intent.ownerId, paymentId);
    const { events, state: after } = await this.ledger.payment(
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
    const recorded = events.find((event) => event.type === 'PaymentRefunded');
    let creditsRevoked = 0;
    if (intent.kind === 'PACK') {
      const credits = await this.ledger.creditsState(intent.ownerId);
      if (credits.packs.has(paymentId)) {
        // Taken back at the first refund: a later one finds nothing left and records nothing.
        const revoked = await this.ledger.credits(
          intent.ownerId,
          { type: 'RevokeCredits', paymentId, now: this.clock.now().toISOString() },
          context,
        );
        for (const event of revoked.events) if (event.type === 'CreditsRevoked') creditsRevoked += event.data.credits;
      }
    }
    return {
      paymentId,
      ownerId: intent.ownerId,
      kind: intent.kind,
      amount: recorded?.data.amount ?? { amount: after.refunded, currency: (after.captured ?? intent.price).currency },
      refundedNow: !!recorded,
      creditsRevoked,
      trackId: intent.trackId,
    };
  }
}
