import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetPaymentByProviderRef, type PaymentDocument } from '../../contracts/queries';
import { paymentNotFound } from '../../domain/errors';
import type { OrangeMoneyTransaction } from '../../providers/port';
import { CapturePayPalService } from '../capture-paypal/capture-paypal.service';
import { Ledger } from '../ledger';
import { PaymentRecords, paypalMoney } from '../payments/payment-records';
import { PaymentRefresh } from '../payments/payment-refresh';

/** The order a capture belongs to, as PayPal's capture resource names it (`supplementary_data.related_ids`). */
function captureOrderId(resource: Record<string, unknown>): string | null {
  const related = (resource.supplementary_data as { related_ids?: { order_id?: unknown } } | undefined)?.related_ids;
  return typeof related?.order_id === 'string' ? related.order_id : null;
}

/** What a verified provider callback says about a payment, recorded once (duplicates and late ones change nothing). */
@Injectable()
export class ProviderCallbacksService {
  constructor(
    private readonly ledger: Ledger,
    private readonly records: PaymentRecords,
    private readonly refresh: PaymentRefresh,
    private readonly capturePayPal: CapturePayPalService,
    private readonly queries: QueryBus,
  ) {}

  /** A verified Orange Money callback (duplicates and late ones change nothing). */
  async onOrangeMoneyCallback(transaction: OrangeMoneyTransaction): Promise<void> {
    const paymentId = transaction.metadata.reference ?? transaction.reference;
    const state = await this.ledger.paymentState(paymentId);
    if (!state.intent || state.intent.provider !== 'ORANGE_MONEY') throw paymentNotFound();
    await this.refresh.applyOrangeMoney(paymentId, state, transaction, 'callback');
  }

  /** A verified PayPal webhook: an approval is captured on the payer's behalf, a completed capture recorded. */
  async onPayPalWebhook(eventType: string, resource: Record<string, unknown>): Promise<void> {
    if (eventType === 'CHECKOUT.ORDER.APPROVED') {
      const doc = await this.queries.execute<GetPaymentByProviderRef, PaymentDocument | null>(
        new GetPaymentByProviderRef('PAYPAL', String(resource.id)),
      );
      if (!doc) return;
      const state = await this.ledger.paymentState(doc._id);
      if (state.status === 'pending') await this.capturePayPal.capture(doc._id, state, 'callback');
      return;
    }
    if (eventType === 'PAYMENT.CAPTURE.COMPLETED' || eventType === 'PAYMENT.CAPTURE.DENIED') {
      const paymentId = typeof resource.custom_id === 'string' ? resource.custom_id : null;
      if (!paymentId) return;
      const state = await this.ledger.paymentState(paymentId);
      if (!state.intent || state.intent.provider !== 'PAYPAL') return;
      if (eventType === 'PAYMENT.CAPTURE.DENIED') {
        await this.records.recordFailure(
          paymentId,
          state.intent.ownerId,
          'PAYPAL.CAPTURE_DENIED',
          'The capture was denied.',
        );
        return;
      }
      await this.records.recordCapture(paymentId, state.intent.ownerId, {
        captureId: String(resource.id),
        amount: paypalMoney(resource.amount as Parameters<typeof paypalMoney>[0]),
        providerRef: captureOrderId(resource),
        source: 'callback',
      });
    }
  }
}
