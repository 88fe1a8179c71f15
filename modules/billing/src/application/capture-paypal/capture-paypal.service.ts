import type { CaptureAnswer } from '@kora/contracts';
import { Inject, Injectable } from '@nestjs/common';
import {
  PaymentClosedError,
  PaymentDeclinedError,
  PaymentNotApprovedError,
  PaymentNotCapturedError,
  PaymentUnderReviewError,
  ProviderUnavailableError,
} from '../../domain/errors';
import type { PaymentState } from '../../domain/payment';
import { PayPalGateway, type PayPalOrder, ProviderRefusal, ProviderUnavailable } from '../../providers/port';
import { BILLING_OPTIONS, type BillingOptions } from '../billing-options';
import { Grants } from '../grants';
import { completedCapture, PaymentRecords, paypalMoney } from '../payments/payment-records';

/** Captures an approved PayPal order: the capture route, a webhook's approval, the reconciler. */
@Injectable()
export class CapturePayPalService {
  constructor(
    private readonly records: PaymentRecords,
    private readonly grants: Grants,
    private readonly paypal: PayPalGateway,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /** Captures an approved PayPal order; a repeat answers the first capture and grants nothing more. */
  async capture(
    paymentId: string,
    state: PaymentState,
    source: 'capture' | 'callback' | 'reconciler',
  ): Promise<Omit<CaptureAnswer, 'paymentId'>> {
    const intent = state.intent!;
    if (state.status === 'paid' || state.status === 'refunded') {
      await this.grants.grantPayment(paymentId);
      return { success: true, message: 'Payment already captured', status: state.status };
    }
    if (state.status !== 'pending') {
      throw new PaymentClosedError(state.status);
    }
    let order: PayPalOrder;
    try {
      order = await this.paypal.captureOrder(intent.providerRef, paymentId);
      // Tests only: die exactly between the provider's capture and our append (the reconciler's case).
      if (this.options.crashAfterCapture) process.kill(process.pid, 'SIGKILL');
    } catch (error) {
      if (error instanceof ProviderRefusal && error.issue === 'ORDER_ALREADY_CAPTURED') {
        order = await this.paypal.getOrder(intent.providerRef).catch(() => {
          throw new ProviderUnavailableError();
        });
      } else if (error instanceof ProviderRefusal && error.issue === 'INSTRUMENT_DECLINED') {
        // PayPal's guidance: the buyer picks another card or funding source in the same checkout (the JS SDK's
        // `actions.restart()`), so the payment stays open; left unpaid, it expires with its order.
        throw new PaymentDeclinedError(error.issue, true);
      } else if (error instanceof ProviderRefusal && error.final) {
        await this.records.recordFailure(paymentId, intent.ownerId, `PAYPAL.${error.issue}`, error.message);
        throw new PaymentDeclinedError(error.issue);
      } else if (error instanceof ProviderRefusal) {
        throw new PaymentNotApprovedError(error.issue);
      } else if (error instanceof ProviderUnavailable) {
        throw new ProviderUnavailableError();
      } else throw error;
    }
    const capture = completedCapture(order);
    const refused = order.purchase_units
      .flatMap((unit) => unit.payments?.captures ?? [])
      .find((c) => c.status === 'DECLINED' || c.status === 'FAILED');
    if (!capture && refused) {
      // A 2xx whose capture PayPal declined: the payment failed, whatever the HTTP status said.
      await this.records.recordFailure(
        paymentId,
        intent.ownerId,
        'PAYPAL.CAPTURE_DECLINED',
        'The capture was declined.',
      );
      throw new PaymentDeclinedError('CAPTURE_DECLINED');
    }
    if (!capture) throw new PaymentNotCapturedError();
    const after = await this.records.recordCapture(paymentId, intent.ownerId, {
      captureId: capture.id,
      amount: paypalMoney(capture.amount),
      providerRef: order.id,
      source,
    });
    if (after.status !== 'paid' && after.status !== 'refunded') {
      // PayPal took an amount, currency or order that is not this sale: kept for an operator, nothing granted.
      throw new PaymentUnderReviewError();
    }
    return { success: true, message: 'Payment captured', status: 'paid' };
  }
}
