import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CommandContexts } from '@kora/kernel/nest';
import { type CaptureSource, CURRENCIES, type Currency, type Money, PROVIDERS } from '../../contracts/events';
import { GetPaymentByProviderRef, type PaymentDocument } from '../../contracts/queries';
import { toMinor } from '../../domain/catalogue';
import { PaymentNotFoundError } from '../../domain/errors';
import type { PaymentState } from '../../domain/payment';
import type { PayPalOrder } from '../../providers/port';
import { Grants } from '../grants';
import { Ledger } from '../ledger';

/** PayPal's decimal amount to minor units; null when it is missing or not an amount of a currency Kora sells in. */
export function paypalMoney(amount: { currency_code?: unknown; value?: unknown } | null | undefined): Money | null {
  const currency = amount?.currency_code as Currency;
  if (!CURRENCIES.includes(currency)) return null;
  const minor = toMinor(amount?.value, currency);
  return minor === null ? null : { amount: minor, currency };
}

/** The order's completed capture, if it has one. */
export function completedCapture(order: PayPalOrder) {
  return order.purchase_units.flatMap((unit) => unit.payments?.captures ?? []).find((c) => c.status === 'COMPLETED');
}

/**
 * What the payment use cases share: the user's payment found by either id, and a capture or a failure recorded
 * however it was reported (our capture call, a verified callback, the status poll, the reconciler), recorded once and
 * granted once.
 */
@Injectable()
export class PaymentRecords {
  constructor(
    private readonly ledger: Ledger,
    private readonly grants: Grants,
    private readonly queries: QueryBus,
    private readonly contexts: CommandContexts,
  ) {}

  /** The user's payment by our id or the provider's (an order id, a QR id); another user's is a 404. */
  async owned(userId: string, id: string): Promise<{ paymentId: string; state: PaymentState }> {
    let state = await this.ledger.paymentState(id);
    let paymentId = id;
    if (!state.intent) {
      for (const provider of PROVIDERS) {
        const doc = await this.queries.execute<GetPaymentByProviderRef, PaymentDocument | null>(
          new GetPaymentByProviderRef(provider, id),
        );
        if (doc) {
          paymentId = doc._id;
          state = await this.ledger.paymentState(doc._id);
          break;
        }
      }
    }
    if (!state.intent || state.intent.ownerId !== userId) throw new PaymentNotFoundError();
    return { paymentId, state };
  }

  /**
   * Records the provider's capture (once) and grants it (once), when it is the price, in its currency, for this
   * order; anything else is recorded as an anomaly and grants nothing.
   */
  async recordCapture(
    paymentId: string,
    ownerId: string,
    capture: { captureId: string; amount: Money | null; providerRef: string | null; source: CaptureSource },
  ): Promise<PaymentState> {
    const { state } = await this.ledger.payment(
      paymentId,
      { type: 'RecordCapture', ...capture },
      this.contexts.forSystem(ownerId, paymentId),
    );
    await this.grants.grantPayment(paymentId);
    return state;
  }

  async recordFailure(paymentId: string, ownerId: string, code: string, message: string): Promise<void> {
    await this.ledger.payment(
      paymentId,
      { type: 'RecordFailure', code, message },
      this.contexts.forSystem(ownerId, paymentId),
    );
  }
}
