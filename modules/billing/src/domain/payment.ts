import type { Decider } from '@kora/kernel';
import type {
  AnomalyKind,
  CaptureSource,
  Money,
  PaymentEvent,
  PaymentIntentCreated,
  PaymentStatus,
} from '../contracts/events';
import {
  AlreadyPaidError,
  NoAnomalyError,
  NotRefundableError,
  PaymentNotFoundError,
  RefundExceedsCaptureError,
} from './errors';

/**
 * How long PayPal lets a payer approve an order: an order still unapproved after it has expired at PayPal, and
 * its payment expires here too (the reconciler's pass), so abandoned checkouts leave the pending list.
 */
export const PAYPAL_APPROVAL_WINDOW_MS = 3 * 60 * 60 * 1000;

export interface PaymentState {
  intent: PaymentIntentCreated['data'] | null;
  status: PaymentStatus | null;
  captureId: string | null;
  /** What the granted capture took (what refunds may give back, in its currency). */
  captured: Money | null;
  /** The refunds recorded, by the provider's refund id (a webhook delivered again names the same one). */
  refundIds: Set<string>;
  /** Their total, in the captured currency's minor unit: a payment refunded in part may be refunded again. */
  refunded: number;
  /** Why it failed, in the provider's words (`ORANGE_MONEY.INSUFFICIENT_BALANCE`, `PAYPAL.INSTRUMENT_DECLINED`). */
  failure: { code: string; message: string } | null;
  /** Money reported that did not match the sale, by capture id, and whether an operator has resolved it. */
  anomalies: Map<string, { kind: AnomalyKind; reported: Money | null; resolved: boolean }>;
}

export type PaymentCommand =
  | { type: 'CreateIntent'; intent: PaymentIntentCreated['data'] }
  | {
      type: 'RecordCapture';
      captureId: string;
      /** What the provider reports it took; null when it said no amount (never granted then). */
      amount: Money | null;
      /** The order (or QR code) the provider names for it; null when it named none. */
      providerRef: string | null;
      source: CaptureSource;
    }
  | { type: 'ResolveAnomaly'; captureId: string; resolution: 'grant' | 'refund'; note: string; refundId: string | null }
  | { type: 'RecordFailure'; code: string; message: string }
  | { type: 'Cancel'; by: 'user' | 'provider' }
  | { type: 'Expire' }
  | {
      type: 'Refund';
      refundId: string;
      reason: string;
      /**
       * What went back (default: all the capture not refunded yet, nothing when that is none); `reversal` for a
       * chargeback. Refunds add up: together they give back at most the capture, in its currency.
       */
      amount?: Money;
      source?: 'operator' | 'provider';
      reversal?: boolean;
    };

export const initialPaymentState = (): PaymentState => ({
  intent: null,
  status: null,
  captureId: null,
  captured: null,
  refundIds: new Set(),
  refunded: 0,
  failure: null,
  anomalies: new Map(),
});

/**
 * Whether money the provider reports is what was sold, for this intent, while it could be paid; null when it is.
 * The order id is checked when the provider names one (PayPal always does; Orange Money's callback names our id).
 */
export function anomalyOf(
  state: PaymentState,
  report: { captureId: string; amount: Money | null; providerRef: string | null; requireRef: boolean },
): AnomalyKind | null {
  const intent = state.intent!;
  if (state.status === 'paid' || state.status === 'refunded') {
    return report.captureId === state.captureId ? null : 'PAID_TWICE';
  }
  if (
    report.requireRef
      ? report.providerRef !== intent.providerRef
      : report.providerRef !== null && report.providerRef !== intent.providerRef
  ) {
    return 'UNKNOWN_ORDER';
  }
  if (!report.amount || !Number.isFinite(report.amount.amount)) return 'AMOUNT_MISSING';
  if (report.amount.currency !== intent.price.currency) return 'WRONG_CURRENCY';
  if (report.amount.amount < intent.price.amount) return 'UNDERPAID';
  if (report.amount.amount > intent.price.amount) return 'OVERPAID';
  if (state.status === 'cancelled' || state.status === 'expired') return 'PAID_AFTER_CLOSE';
  return null;
}

/**
 * The provider's reason for a failure, as the client is told it (`INSUFFICIENT_BALANCE`, `INSTRUMENT_DECLINED`):
 * the failure's code without its provider, or null when the provider gave none (`ORANGE_MONEY.FAILED`).
 */
export function declineReason(code: string | null | undefined): string | null {
  const reason = code?.split('.')[1];
  return reason && reason !== 'FAILED' ? reason : null;
}

export function evolvePayment(state: PaymentState, event: PaymentEvent): PaymentState {
  switch (event.type) {
    case 'PaymentIntentCreated':
      return { ...state, intent: event.data, status: 'pending' };
    case 'PaymentCaptured':
      return { ...state, status: 'paid', captureId: event.data.captureId, captured: event.data.amount };
    case 'PaymentFailed':
      return { ...state, status: 'failed', failure: { code: event.data.code, message: event.data.message } };
    case 'PaymentCancelled':
      return { ...state, status: 'cancelled' };
    case 'PaymentExpired':
      return { ...state, status: 'expired' };
    case 'PaymentRefunded':
      // A payment refunded in part shows `refunded` as well: the money stopped being all ours at the first refund.
      return {
        ...state,
        status: 'refunded',
        refundIds: new Set(state.refundIds).add(event.data.refundId),
        refunded: state.refunded + event.data.amount.amount,
      };
    case 'PaymentAnomalyDetected':
      return {
        ...state,
        anomalies: new Map(state.anomalies).set(event.data.captureId, {
          kind: event.data.kind,
          reported: event.data.reported,
          resolved: false,
        }),
      };
    case 'PaymentAnomalyResolved': {
      const anomaly = state.anomalies.get(event.data.captureId);
      if (!anomaly) return state;
      return {
        ...state,
        anomalies: new Map(state.anomalies).set(event.data.captureId, { ...anomaly, resolved: true }),
      };
    }
  }
}

export function decidePayment(command: PaymentCommand, state: PaymentState): PaymentEvent[] {
  if (command.type === 'CreateIntent') {
    return state.intent ? [] : [{ type: 'PaymentIntentCreated', data: command.intent }];
  }
  if (!state.intent) throw new PaymentNotFoundError();
  switch (command.type) {
    case 'RecordCapture': {
      // A second report of the same money changes nothing.
      if (state.captureId === command.captureId || state.anomalies.has(command.captureId)) return [];
      // Only the price, in its currency, for this order, while it could be paid, is granted; anything else is
      // recorded for an operator. A capture call that timed out and was marked failed is still this sale's money.
      const kind = anomalyOf(state, { ...command, requireRef: state.intent.provider === 'PAYPAL' });
      if (kind) {
        return [
          {
            type: 'PaymentAnomalyDetected',
            data: {
              kind,
              captureId: command.captureId,
              reported: command.amount,
              expected: state.intent.price,
              providerRef: command.providerRef,
              source: command.source,
              statusBefore: state.status!,
            },
          },
        ];
      }
      return [
        {
          type: 'PaymentCaptured',
          data: { captureId: command.captureId, amount: command.amount!, source: command.source },
        },
      ];
    }
    case 'ResolveAnomaly': {
      const anomaly = state.anomalies.get(command.captureId);
      if (!anomaly) {
        throw new NoAnomalyError();
      }
      if (anomaly.resolved) return [];
      const resolved: PaymentEvent = {
        type: 'PaymentAnomalyResolved',
        data: {
          captureId: command.captureId,
          resolution: command.resolution === 'grant' ? 'granted' : 'refunded',
          note: command.note,
          refundId: command.refundId,
        },
      };
      if (command.resolution === 'refund') return [resolved];
      if (state.status === 'paid' || state.status === 'refunded') {
        throw new AlreadyPaidError('This payment is already granted: refund this money at the provider instead.');
      }
      return [
        resolved,
        {
          type: 'PaymentCaptured',
          data: { captureId: command.captureId, amount: anomaly.reported ?? state.intent.price, source: 'operator' },
        },
      ];
    }
    case 'RecordFailure':
      return state.status === 'pending'
        ? [{ type: 'PaymentFailed', data: { code: command.code, message: command.message } }]
        : [];
    case 'Cancel':
      if (state.status === 'paid' || state.status === 'refunded') {
        throw new AlreadyPaidError('This payment is already complete.');
      }
      return state.status === 'pending' ? [{ type: 'PaymentCancelled', data: { by: command.by } }] : [];
    case 'Expire':
      return state.status === 'pending' ? [{ type: 'PaymentExpired', data: {} }] : [];
    case 'Refund': {
      if (state.status !== 'paid' && state.status !== 'refunded') {
        throw new NotRefundableError();
      }
      // The same refund reported again (a webhook delivered twice, the command run again with its id) is one refund.
      if (state.refundIds.has(command.refundId)) return [];
      const captured = state.captured ?? state.intent.price;
      const left = captured.amount - state.refunded;
      if (!command.amount && left <= 0) return []; // refunded in full already: nothing is left to give back
      const amount = command.amount ?? { amount: left, currency: captured.currency };
      if (amount.currency !== captured.currency || amount.amount > left) {
        throw new RefundExceedsCaptureError({
          captured,
          refunded: { amount: state.refunded, currency: captured.currency },
          refund: amount,
        });
      }
      return [
        {
          type: 'PaymentRefunded',
          data: {
            amount,
            reason: command.reason,
            refundId: command.refundId,
            source: command.source ?? 'operator',
            ...(command.reversal ? { reversal: true } : {}),
          },
        },
      ];
    }
  }
}

export const paymentDecider: Decider<PaymentCommand, PaymentEvent, PaymentState> = {
  initialState: initialPaymentState,
  evolve: evolvePayment,
  decide: decidePayment,
};
