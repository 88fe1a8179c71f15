import { describe, expect, it } from '@jest/globals';
import {
  type Money,
  type PaymentDocument,
  type PaymentEvent,
  type PaymentIntentCreated,
  paymentStream,
} from '@kora/billing/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { paymentsProjection } from './payments.projection';

const givenEvents = ProjectionSpecification.for(paymentsProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const T2 = '2026-03-02T09:00:00.000Z';
const stream = paymentStream('p1');
const price: Money = { amount: 1_000, currency: 'EUR' };

const intent: PaymentIntentCreated['data'] = {
  paymentId: 'p1',
  ownerId: 'u1',
  provider: 'PAYPAL',
  providerRef: 'ORDER-1',
  kind: 'PACK',
  planId: 'mastering-basic',
  planName: 'Mastering Basic',
  service: 'AI_MASTERING',
  trackId: null,
  billingCycle: 'MONTHLY',
  credits: 5,
  price,
  catalogueVersion: '2026-03',
  expiresAt: '2026-03-01T13:00:00.000Z',
  mode: 'sandbox',
};
const created: PaymentEvent = { type: 'PaymentIntentCreated', data: intent };
const captured: PaymentEvent = {
  type: 'PaymentCaptured',
  data: { captureId: 'CAP-1', amount: price, source: 'capture' },
};
const refunded: PaymentEvent = {
  type: 'PaymentRefunded',
  data: { amount: price, reason: 'Asked by the customer', refundId: 'REF-1', source: 'operator' },
};

const payment: PaymentDocument = {
  _id: 'p1',
  userId: 'u1',
  provider: 'PAYPAL',
  providerRef: 'ORDER-1',
  kind: 'PACK',
  planId: 'mastering-basic',
  planName: 'Mastering Basic',
  service: 'AI_MASTERING',
  trackId: null,
  billingCycle: 'MONTHLY',
  credits: 5,
  price,
  status: 'pending',
  captureId: null,
  failure: null,
  expiresAt: '2026-03-01T13:00:00.000Z',
  createdAt: T0,
  updatedAt: T0,
  searchText: 'mastering basic paypal 2026-03-01 ai_mastering',
};

describe('the payments read model', () => {
  it('makes a pending payment from its intent, searchable by plan, method, day and service', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, created)).thenDocument('p1', payment);
  });

  it('finds an Orange Money payment by the words its payers use', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    const orange: PaymentEvent = {
      type: 'PaymentIntentCreated',
      data: {
        ...intent,
        provider: 'ORANGE_MONEY',
        providerRef: 'QR-1',
        kind: 'TRACK',
        trackId: 't1',
        billingCycle: null,
        credits: 0,
        price: { amount: 1_500, currency: 'XOF' },
        planName: 'Single Track',
        service: 'STEM_SEPARATION',
      },
    };
    givenEvents(log.record(stream, orange)).thenDocument('p1', {
      ...payment,
      provider: 'ORANGE_MONEY',
      providerRef: 'QR-1',
      kind: 'TRACK',
      trackId: 't1',
      billingCycle: null,
      credits: 0,
      price: { amount: 1_500, currency: 'XOF' },
      planName: 'Single Track',
      service: 'STEM_SEPARATION',
      searchText: 'single track orange money mobile money 2026-03-01 stem_separation',
    });
  });

  it('shows a captured payment as paid, with its capture id', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, created), log.record(stream, captured, { occurredAt: T1 })).thenDocument('p1', {
      ...payment,
      status: 'paid',
      captureId: 'CAP-1',
      updatedAt: T1,
    });
  });

  it('shows a failed payment with the provider’s reason', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(
        stream,
        { type: 'PaymentFailed', data: { code: 'PAYPAL.INSTRUMENT_DECLINED', message: 'The card was declined.' } },
        { occurredAt: T1 },
      ),
    ).thenDocument('p1', {
      ...payment,
      status: 'failed',
      failure: { code: 'PAYPAL.INSTRUMENT_DECLINED', message: 'The card was declined.' },
      updatedAt: T1,
    });
  });

  it('shows a cancelled payment as cancelled', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, { type: 'PaymentCancelled', data: { by: 'user' } }, { occurredAt: T1 }),
    ).thenDocument('p1', { ...payment, status: 'cancelled', updatedAt: T1 });
  });

  it('shows an abandoned payment as expired', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, { type: 'PaymentExpired', data: {} }, { occurredAt: T1 }),
    ).thenDocument('p1', { ...payment, status: 'expired', updatedAt: T1 });
  });

  it('shows a refunded payment as refunded, keeping the capture it refunds', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, captured, { occurredAt: T1 }),
      log.record(stream, refunded, { occurredAt: T2 }),
    ).thenDocument('p1', { ...payment, status: 'refunded', captureId: 'CAP-1', updatedAt: T2 });
  });

  it('shows a chargeback (a reversal by the buyer’s bank) as refunded', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, captured, { occurredAt: T1 }),
      log.record(
        stream,
        {
          type: 'PaymentRefunded',
          data: { amount: price, reason: 'Chargeback', refundId: 'CB-1', source: 'provider', reversal: true },
        },
        { occurredAt: T2 },
      ),
    ).thenDocument('p1', { ...payment, status: 'refunded', captureId: 'CAP-1', updatedAt: T2 });
  });

  it('shows a payment refunded in part, then charged back, as refunded, updated at the last refund', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    const part = { amount: { amount: 400, currency: price.currency }, reason: 'Partial', refundId: 'REF-1' };
    const rest = { amount: { amount: price.amount - 400, currency: price.currency }, reason: 'Chargeback' };
    givenEvents(
      log.record(stream, created),
      log.record(stream, captured, { occurredAt: T1 }),
      log.record(stream, { type: 'PaymentRefunded', data: { ...part, source: 'provider' } }, { occurredAt: T1 }),
      log.record(
        stream,
        { type: 'PaymentRefunded', data: { ...rest, refundId: 'CB-1', source: 'provider', reversal: true } },
        { occurredAt: T2 },
      ),
    ).thenDocument('p1', { ...payment, status: 'refunded', captureId: 'CAP-1', updatedAt: T2 });
  });

  it('shows nothing of money under an operator’s review until it is granted', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    const underpaid: Money = { amount: 500, currency: 'EUR' };
    const detected: PaymentEvent = {
      type: 'PaymentAnomalyDetected',
      data: {
        kind: 'UNDERPAID',
        captureId: 'CAP-X',
        reported: underpaid,
        expected: price,
        providerRef: 'ORDER-1',
        source: 'callback',
        statusBefore: 'pending',
      },
    };
    const granted: PaymentEvent = {
      type: 'PaymentAnomalyResolved',
      data: { captureId: 'CAP-X', resolution: 'granted', note: 'Paid the rest in cash', refundId: null },
    };
    const reviewed = [log.record(stream, created), log.record(stream, detected, { occurredAt: T1 })];
    givenEvents(...reviewed).thenDocument('p1', payment);
    const resolved = log.record(stream, granted, { occurredAt: T2 });
    givenEvents(...reviewed, resolved).thenDocument('p1', payment);
    givenEvents(
      ...reviewed,
      resolved,
      log.record(
        stream,
        { type: 'PaymentCaptured', data: { captureId: 'CAP-X', amount: underpaid, source: 'operator' } },
        { occurredAt: T2 },
      ),
    ).thenDocument('p1', { ...payment, status: 'paid', captureId: 'CAP-X', updatedAt: T2 });
  });

  it('makes no document for events of a payment it never saw created', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, captured), log.record(stream, refunded)).thenNoDocument('p1');
  });

  it('keeps each payment in its own document', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(paymentStream('p2'), { type: 'PaymentIntentCreated', data: { ...intent, paymentId: 'p2' } }),
      log.record(stream, captured, { occurredAt: T1 }),
    ).thenDocuments([
      { ...payment, status: 'paid', captureId: 'CAP-1', updatedAt: T1 },
      { ...payment, _id: 'p2' },
    ]);
  });

  it('changes nothing when an event is applied twice: a replayed capture does not undo a refund', () => {
    const log = eventLog<PaymentEvent>({ occurredAt: T0 });
    const first = log.record(stream, created);
    const capture = log.record(stream, captured, { occurredAt: T1 });
    const refund = log.record(stream, refunded, { occurredAt: T2 });
    givenEvents(first, capture, refund, capture, first).thenDocument(
      'p1',
      expect.objectContaining({ status: 'refunded', captureId: 'CAP-1', createdAt: T0, updatedAt: T2 }),
    );
  });
});
