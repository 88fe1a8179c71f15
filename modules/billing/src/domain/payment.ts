import type { Decider } from '@kora/kernel';
import type { Money, PaymentEvent, PaymentIntentCreated, PaymentStatus } from '../contracts/events';
import { BillingError, paymentNotFound } from './errors';

/**
 * How long PayPal lets a payer approve an order: an order still unapproved after it has expired at PayPal, and
 * its payment expires here too (the reconciler's pass), so abandoned checkouts leave the pending list.
 */
export const PAYPAL_APPROVAL_WINDOW_MS = 3 * 60 * 60 * 1000;

export interface PaymentState {
  intent: PaymentIntentCreated['data'] | null;
  status: PaymentStatus | null;
  captureId: string | null;
}

export type PaymentCommand =
  | { type: 'CreateIntent'; intent: PaymentIntentCreated['data'] }
  | {
      type: 'RecordCapture';
      captureId: string;
      amount: Money;
      source: 'capture' | 'callback' | 'reconciler' | 'status';
    }
  | { type: 'RecordFailure'; code: string; message: string }
  | { type: 'Cancel'; by: 'user' | 'provider' }
  | { type: 'Expire' }
  | { type: 'Refund'; refundId: string; reason: string };

export const initialPaymentState = (): PaymentState => ({ intent: null, status: null, captureId: null });

export function evolvePayment(state: PaymentState, event: PaymentEvent): PaymentState {
  switch (event.type) {
    case 'PaymentIntentCreated':
      return { ...state, intent: event.data, status: 'pending' };
    case 'PaymentCaptured':
      return { ...state, status: 'paid', captureId: event.data.captureId };
    case 'PaymentFailed':
      return { ...state, status: 'failed' };
    case 'PaymentCancelled':
      return { ...state, status: 'cancelled' };
    case 'PaymentExpired':
      return { ...state, status: 'expired' };
    case 'PaymentRefunded':
      return { ...state, status: 'refunded' };
  }
}

export function decidePayment(command: PaymentCommand, state: PaymentState): PaymentEvent[] {
  if (command.type === 'CreateIntent') {
    return state.intent ? [] : [{ type: 'PaymentIntentCreated', data: command.intent }];
  }
  if (!state.intent) throw paymentNotFound();
  switch (command.type) {
    case 'RecordCapture':
      // The provider has the money: that is recorded once, whatever our side had concluded before (a capture call
      // that timed out and was marked failed, a QR the user closed). A second report changes nothing.
      if (state.status === 'paid' || state.status === 'refunded') return [];
      return [
        {
          type: 'PaymentCaptured',
          data: { captureId: command.captureId, amount: command.amount, source: command.source },
        },
      ];
    case 'RecordFailure':
      return state.status === 'pending'
        ? [{ type: 'PaymentFailed', data: { code: command.code, message: command.message } }]
        : [];
    case 'Cancel':
      if (state.status === 'paid' || state.status === 'refunded') {
        throw new BillingError('BILLING.ALREADY_PAID', 'This payment is already complete.', 'conflict');
      }
      return state.status === 'pending' ? [{ type: 'PaymentCancelled', data: { by: command.by } }] : [];
    case 'Expire':
      return state.status === 'pending' ? [{ type: 'PaymentExpired', data: {} }] : [];
    case 'Refund':
      if (state.status === 'refunded') return [];
      if (state.status !== 'paid') {
        throw new BillingError('BILLING.NOT_REFUNDABLE', 'Only a paid payment can be refunded.', 'conflict');
      }
      return [
        {
          type: 'PaymentRefunded',
          data: { amount: state.intent.price, reason: command.reason, refundId: command.refundId },
        },
      ];
  }
}

export const paymentDecider: Decider<PaymentCommand, PaymentEvent, PaymentState> = {
  initialState: initialPaymentState,
  evolve: evolvePayment,
  decide: decidePayment,
};
