import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import type { PaymentState } from '../../domain/payment';
import { OrangeMoneyGateway, type OrangeMoneyTransaction, PayPalGateway } from '../../providers/port';
import { CapturePayPalService } from '../capture-paypal/capture-paypal.service';
import { Ledger } from '../ledger';
import { completedCapture, PaymentRecords, paypalMoney } from './payment-records';

/**
 * Asks the provider about a pending payment and records what it says: for the status poll, an unlock or a cancel
 * (which ask first) and the reconciler. Orange Money's word is applied the same way when its callback brings it.
 */
@Injectable()
export class PaymentRefresh {
  constructor(
    private readonly ledger: Ledger,
    private readonly records: PaymentRecords,
    private readonly capturePayPal: CapturePayPalService,
    private readonly paypal: PayPalGateway,
    private readonly orangeMoney: OrangeMoneyGateway,
    private readonly contexts: CommandContexts,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Asks the provider about a pending payment and records what it says. */
  async refresh(paymentId: string, state: PaymentState, source: 'status' | 'reconciler'): Promise<void> {
    const intent = state.intent!;
    if (intent.provider === 'ORANGE_MONEY') {
      const transaction = await this.orangeMoney.getTransaction(paymentId);
      await this.applyOrangeMoney(paymentId, state, transaction, source);
      return;
    }
    const order = await this.paypal.getOrder(intent.providerRef);
    const capture = completedCapture(order);
    if (order.status === 'COMPLETED' && capture) {
      await this.records.recordCapture(paymentId, intent.ownerId, capture.id, paypalMoney(capture.amount), source);
    } else if (order.status === 'APPROVED' && source === 'reconciler') {
      await this.capturePayPal.capture(paymentId, state, 'reconciler'); // the payer approved; the window closed before capture
    } else if (order.status === 'VOIDED') {
      await this.ledger.payment(
        paymentId,
        { type: 'Cancel', by: 'provider' },
        this.contexts.forSystem(intent.ownerId, paymentId),
      );
    }
  }

  /** Applies what Orange Money says about a payment (callback, status poll, reconciler). */
  async applyOrangeMoney(
    paymentId: string,
    state: PaymentState,
    transaction: OrangeMoneyTransaction,
    source: 'callback' | 'reconciler' | 'status',
  ): Promise<void> {
    const ownerId = state.intent!.ownerId;
    const context = this.contexts.forSystem(ownerId, paymentId);
    switch (transaction.status) {
      case 'SUCCESS':
        await this.records.recordCapture(
          paymentId,
          ownerId,
          transaction.transactionId ?? transaction.reference,
          { amount: transaction.amount.value, currency: 'XOF' },
          source,
        );
        return;
      case 'FAILED':
        await this.records.recordFailure(paymentId, ownerId, 'ORANGE_MONEY.FAILED', 'The Orange Money payment failed.');
        return;
      case 'CANCELLED':
        if (state.status === 'pending')
          await this.ledger.payment(paymentId, { type: 'Cancel', by: 'provider' }, context);
        return;
      case 'EXPIRED':
        await this.ledger.payment(paymentId, { type: 'Expire' }, context);
        return;
      default: {
        // Nobody paid (Orange Money reports no transaction) and the QR code's validity has passed: it expired.
        const expiresAt = state.intent!.expiresAt;
        if (
          transaction.status === 'INITIATED' &&
          source !== 'callback' &&
          expiresAt &&
          expiresAt <= this.clock.now().toISOString()
        ) {
          await this.ledger.payment(paymentId, { type: 'Expire' }, context);
        }
        return;
      }
    }
  }
}
