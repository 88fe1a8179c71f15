import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import type { Money } from '../../contracts/events';
import type { PaymentState } from '../../domain/payment';
import {
  OrangeMoneyGateway,
  type OrangeMoneyTransaction,
  PayPalGateway,
  type PayPalOrder,
  ProviderRefusal,
} from '../../providers/port';
import { CapturePayPalService } from '../capture-paypal/capture-paypal.service';
import { Ledger } from '../ledger';
import { Refunds } from '../refund/refunds';
import { completedCapture, PaymentRecords, paypalMoney } from './payment-records';

/** Orange Money's amount in XOF; null when it reports none (fail closed: never granted). */
function orangeMoneyAmount(transaction: OrangeMoneyTransaction): Money | null {
  const amount = transaction.amount as { unit?: unknown; value?: unknown } | null;
  const value = typeof amount?.value === 'string' ? Number(amount.value) : amount?.value;
  if (amount?.unit !== 'XOF' || typeof value !== 'number' || !Number.isInteger(value) || value < 0) return null;
  return { amount: value, currency: 'XOF' };
}

/** PayPal's answers for an order it no longer has (the sandbox's, then the REST API's detail issue). */
const ORDER_GONE = new Set(['RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID']);
/** Order statuses that still wait for the payer. */
const AWAITING_PAYER = new Set<PayPalOrder['status']>(['CREATED', 'SAVED', 'PAYER_ACTION_REQUIRED']);

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
    private readonly refunds: Refunds,
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
    const context = this.contexts.forSystem(intent.ownerId, paymentId);
    let order: PayPalOrder;
    try {
      order = await this.paypal.getOrder(intent.providerRef);
    } catch (error) {
      // PayPal no longer knows an order nobody approved in time.
      if (error instanceof ProviderRefusal && ORDER_GONE.has(error.issue) && this.expired(state)) {
        await this.ledger.payment(paymentId, { type: 'Expire' }, context);
        return;
      }
      throw error;
    }
    const capture = completedCapture(order);
    if (order.status === 'COMPLETED' && capture) {
      await this.records.recordCapture(paymentId, intent.ownerId, {
        captureId: capture.id,
        amount: paypalMoney(capture.amount),
        providerRef: order.id,
        source,
      });
    } else if (order.status === 'APPROVED' && source === 'reconciler') {
      await this.capturePayPal.capture(paymentId, state, 'reconciler'); // the payer approved; the window closed before capture
    } else if (order.status === 'VOIDED') {
      await this.ledger.payment(paymentId, { type: 'Cancel', by: 'provider' }, context);
    } else if (AWAITING_PAYER.has(order.status) && this.expired(state)) {
      // Abandoned at checkout: the payer never approved it within PayPal's window.
      await this.ledger.payment(paymentId, { type: 'Expire' }, context);
    }
  }

  /** Whether the provider's window for this payment (`expiresAt`) has passed. */
  private expired(state: PaymentState): boolean {
    const expiresAt = state.intent!.expiresAt;
    return expiresAt !== null && expiresAt <= this.clock.now().toISOString();
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
        await this.records.recordCapture(paymentId, ownerId, {
          captureId: transaction.transactionId ?? transaction.reference,
          amount: orangeMoneyAmount(transaction),
          providerRef: null,
          source,
        });
        return;
      case 'REFUNDED':
        // Given back by Orange Money or the merchant: recorded once, unspent credits taken back.
        if (state.status === 'paid') {
          await this.refunds.refund(
            paymentId,
            'refund reported by Orange Money',
            transaction.transactionId ?? undefined,
            {
              amount: orangeMoneyAmount(transaction),
              reversal: false,
            },
          );
        }
        return;
      case 'FAILED':
        // The provider's reason (a balance too low...) is kept, so the payer is told what to do about it.
        await this.records.recordFailure(
          paymentId,
          ownerId,
          `ORANGE_MONEY.${transaction.reason && /^[A-Z_]{1,64}$/.test(transaction.reason) ? transaction.reason : 'FAILED'}`,
          'The Orange Money payment failed.',
        );
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
        if (transaction.status === 'INITIATED' && source !== 'callback' && this.expired(state)) {
          await this.ledger.payment(paymentId, { type: 'Expire' }, context);
        }
        return;
      }
    }
  }
}
