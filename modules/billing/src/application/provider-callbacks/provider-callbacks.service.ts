import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetPaymentByCapture, GetPaymentByProviderRef, type PaymentDocument } from '../../contracts/queries';
import { PaymentNotFoundError } from '../../domain/errors';
import { OrangeMoneyGateway, type OrangeMoneyTransaction, ProviderUnavailable } from '../../providers/port';
import { Ledger } from '../ledger';
import { PaymentRecords, paypalMoney } from '../payments/payment-records';
import { PaymentRefresh } from '../payments/payment-refresh';
import { Anomalies } from '../refund/anomalies';
import { Refunds } from '../refund/refunds';

/** Our payment id, as a PayPal resource names it (`custom_id`, or `invoice_id`: both are set on the order). */
function namedPayment(resource: Record<string, unknown>): string | null {
  return [resource.custom_id, resource.invoice_id].find((v): v is string => typeof v === 'string' && !!v) ?? null;
}

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
    private readonly queries: QueryBus,
    private readonly refunds: Refunds,
    private readonly anomalies: Anomalies,
    private readonly orangeMoney: OrangeMoneyGateway,
  ) {}

  /**
   * A verified Orange Money callback (duplicates and late ones change nothing). Money is never granted on the
   * callback's word alone: a success (or a refund) is confirmed by asking the status API, and what it says is applied;
   * not confirmed yet, the answer is 502 so the delivery can come again (the reconciler asks in any case).
   */
  async onOrangeMoneyCallback(transaction: OrangeMoneyTransaction): Promise<void> {
    const paymentId = transaction.metadata.reference ?? transaction.reference;
    const state = await this.ledger.paymentState(paymentId);
    if (!state.intent || state.intent.provider !== 'ORANGE_MONEY') throw new PaymentNotFoundError();
    if (transaction.status !== 'SUCCESS' && transaction.status !== 'REFUNDED') {
      await this.refresh.applyOrangeMoney(paymentId, state, transaction, 'callback');
      return;
    }
    const confirmed = await this.orangeMoney.getTransaction(paymentId);
    if (confirmed.status !== transaction.status) {
      throw new ProviderUnavailable(`Orange Money: the status API does not confirm ${transaction.status} yet`);
    }
    await this.refresh.applyOrangeMoney(paymentId, state, confirmed, 'callback');
  }

  /**
   * A verified PayPal webhook: an approval is captured on the payer's behalf, a completed capture recorded (checked
   * against the sale), a denied one or a reversed approval recorded as failed, a refund or a chargeback taking back
   * what was granted. A pending capture (an eCheck, a review at PayPal) grants nothing until it completes.
   */
  async onPayPalWebhook(eventType: string, resource: Record<string, unknown>): Promise<void> {
    if (eventType === 'PAYMENT.CAPTURE.REFUNDED' || eventType === 'PAYMENT.CAPTURE.REVERSED') {
      await this.onPayPalRefund(resource, eventType === 'PAYMENT.CAPTURE.REVERSED');
      return;
    }
    if (eventType === 'PAYMENT.CAPTURE.PENDING') return;
    if (eventType === 'CHECKOUT.PAYMENT-APPROVAL.REVERSED') {
      const orderId = typeof resource.order_id === 'string' ? resource.order_id : String(resource.id);
      const doc = await this.queries.execute<GetPaymentByProviderRef, PaymentDocument | null>(
        new GetPaymentByProviderRef('PAYPAL', orderId),
      );
      if (!doc) return;
      await this.records.recordFailure(
        doc._id,
        doc.userId,
        'PAYPAL.APPROVAL_REVERSED',
        'PayPal reversed the approval before the payment was taken.',
      );
      return;
    }
    // CHECKOUT.ORDER.APPROVED is not captured here: the payer's page captures it at once (the popup's close, the
    // SDK's onApprove) and is the one that can offer another card when PayPal declines this one (a capture from
    // here would take the decline from the payer). An approval the page never captured (a closed tab) is captured
    // by the reconciler within BILLING_RECONCILE_MIN_AGE_SECONDS and one pass.
    if (eventType === 'CHECKOUT.ORDER.APPROVED') return;
    if (
      eventType === 'PAYMENT.CAPTURE.COMPLETED' ||
      eventType === 'PAYMENT.CAPTURE.DENIED' ||
      eventType === 'PAYMENT.CAPTURE.DECLINED'
    ) {
      const paymentId = namedPayment(resource);
      if (!paymentId) return;
      const state = await this.ledger.paymentState(paymentId);
      if (!state.intent || state.intent.provider !== 'PAYPAL') return;
      if (eventType !== 'PAYMENT.CAPTURE.COMPLETED') {
        await this.records.recordFailure(
          paymentId,
          state.intent.ownerId,
          'PAYPAL.CAPTURE_DENIED',
          'The capture was denied.',
        );
        return;
      }
      const orderId = captureOrderId(resource);
      if (orderId === null) {
        // A delivery that does not name its order proves nothing by itself: PayPal's order, asked directly, says
        // what was captured (and for what), and that is what is recorded.
        if (state.status === 'pending') await this.refresh.refresh(paymentId, state, 'status');
        return;
      }
      await this.records.recordCapture(paymentId, state.intent.ownerId, {
        captureId: String(resource.id),
        amount: paypalMoney(resource.amount as Parameters<typeof paypalMoney>[0]),
        providerRef: orderId,
        source: 'callback',
      });
    }
  }

  /**
   * A refund (or, `reversal`, a chargeback) PayPal reports: its resource is the refund, whose `up` link names the
   * capture. Recorded once for the payment that capture paid, taking back the unspent credits as the operators'
   * command does; money held as an anomaly and refunded at PayPal closes the anomaly instead.
   */
  private async onPayPalRefund(resource: Record<string, unknown>, reversal: boolean): Promise<void> {
    const links = Array.isArray(resource.links) ? (resource.links as Array<{ rel?: string; href?: string }>) : [];
    const up = links.find((link) => link.rel === 'up')?.href ?? '';
    const related = (resource.supplementary_data as { related_ids?: { capture_id?: unknown } } | undefined)?.related_ids
      ?.capture_id;
    const captureId = /\/captures\/([^/?]+)/.exec(up)?.[1] ?? (typeof related === 'string' ? related : null);
    let paymentId = namedPayment(resource);
    if (!paymentId && captureId) {
      const doc = await this.queries.execute<GetPaymentByCapture, PaymentDocument | null>(
        new GetPaymentByCapture('PAYPAL', captureId),
      );
      paymentId = doc?._id ?? null;
    }
    if (!paymentId) return;
    let state = await this.ledger.paymentState(paymentId);
    if (!state.intent || state.intent.provider !== 'PAYPAL') return;
    if (state.status === 'pending') {
      // The refund came before the capture was known here (webhooks arrive in any order): PayPal's order says what
      // was captured, which is recorded (and granted) first, so that the refund then takes it back.
      await this.refresh.refresh(paymentId, state, 'status');
      state = await this.ledger.paymentState(paymentId);
    }
    const refundId = String(resource.id);
    const reason = reversal ? 'chargeback reported by PayPal' : 'refund reported by PayPal';
    if (captureId && state.anomalies.get(captureId)?.resolved === false) {
      await this.anomalies.resolve(paymentId, captureId, 'refund', reason, refundId);
      return;
    }
    if (state.status !== 'paid' && state.status !== 'refunded') return;
    // A reversal's amount may come signed: what went back is its absolute value.
    const given = resource.amount as { currency_code?: unknown; value?: unknown } | undefined;
    const amount = paypalMoney(given && { ...given, value: String(given.value ?? '').replace(/^-/, '') });
    await this.refunds.refund(paymentId, reason, refundId, { amount, reversal });
  }
}
