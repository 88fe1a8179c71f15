import { describe, expect, it } from '@jest/globals';
import { DeciderSpecification } from '@kora/kernel/testing';
import type {
  AnomalyKind,
  CaptureSource,
  Money,
  PaymentAnomalyDetected,
  PaymentEvent,
  PaymentIntentCreated,
  PaymentStatus,
} from '../contracts/events';
import { BillingError } from './errors';
import { type PaymentCommand, paymentDecider } from './payment';

const given = DeciderSpecification.for(paymentDecider);

const price: Money = { amount: 1_000, currency: 'EUR' };

const intentOf = (overrides: Partial<PaymentIntentCreated['data']> = {}): PaymentIntentCreated['data'] => ({
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
  ...overrides,
});
/** An Orange Money sale in francs CFA: its callback may name no order. */
const orangeIntent = intentOf({
  provider: 'ORANGE_MONEY',
  providerRef: 'QR-1',
  price: { amount: 6_500, currency: 'XOF' },
});

const created = (data = intentOf()): PaymentEvent => ({ type: 'PaymentIntentCreated', data });
const captured = (captureId = 'CAP-1', amount: Money = price, source: CaptureSource | 'operator' = 'capture') =>
  ({ type: 'PaymentCaptured', data: { captureId, amount, source } }) satisfies PaymentEvent;
const failed: PaymentEvent = {
  type: 'PaymentFailed',
  data: { code: 'PAYPAL.INSTRUMENT_DECLINED', message: 'The card was declined.' },
};
const cancelled: PaymentEvent = { type: 'PaymentCancelled', data: { by: 'user' } };
const expired: PaymentEvent = { type: 'PaymentExpired', data: {} };
const refunded: PaymentEvent = {
  type: 'PaymentRefunded',
  data: { amount: price, reason: 'Asked by the customer', refundId: 'REF-1', source: 'operator' },
};
const eur = (amount: number): Money => ({ amount, currency: 'EUR' });
/** A partial refund of 4.00 of the 10.00 paid, reported by the provider. */
const partly: PaymentEvent = {
  type: 'PaymentRefunded',
  data: { amount: eur(400), reason: 'Asked by the customer', refundId: 'REF-1', source: 'provider' },
};
const anomaly = (
  kind: AnomalyKind,
  reported: Money | null,
  statusBefore: PaymentStatus = 'pending',
  captureId = 'CAP-X',
): PaymentAnomalyDetected => ({
  type: 'PaymentAnomalyDetected',
  data: { kind, captureId, reported, expected: price, providerRef: 'ORDER-1', source: 'callback', statusBefore },
});

/** A PayPal pack sale opened at the provider, not paid yet. */
const pending: PaymentEvent[] = [created()];
/** The same sale, paid. */
const paid: PaymentEvent[] = [...pending, captured()];

const capture = (overrides: Partial<Extract<PaymentCommand, { type: 'RecordCapture' }>> = {}): PaymentCommand => ({
  type: 'RecordCapture',
  captureId: 'CAP-1',
  amount: price,
  providerRef: 'ORDER-1',
  source: 'capture',
  ...overrides,
});
const refund = (overrides: Partial<Extract<PaymentCommand, { type: 'Refund' }>> = {}): PaymentCommand => ({
  type: 'Refund',
  refundId: 'REF-1',
  reason: 'Asked by the customer',
  ...overrides,
});
const resolve = (
  resolution: 'grant' | 'refund',
  captureId = 'CAP-X',
  refundId: string | null = resolution === 'refund' ? 'REF-X' : null,
): PaymentCommand => ({ type: 'ResolveAnomaly', captureId, resolution, note: 'Checked with the payer', refundId });

describe('creating a payment intent', () => {
  it('records the intent as priced, pending', () => {
    given([]).when({ type: 'CreateIntent', intent: intentOf() }).then([created()]);
    given(pending).thenState({ status: 'pending', intent: intentOf(), captureId: null, failure: null });
  });

  it('is idempotent: a retried creation records nothing', () => {
    given(pending).when({ type: 'CreateIntent', intent: intentOf() }).thenNothingHappened();
  });
});

describe('any other command on a payment never created', () => {
  const commands: PaymentCommand[] = [
    capture(),
    resolve('grant'),
    { type: 'RecordFailure', code: 'PAYPAL.FAILED', message: 'No.' },
    { type: 'Cancel', by: 'user' },
    { type: 'Expire' },
    refund(),
  ];

  it.each(commands.map((command) => [command.type, command] as const))('refuses %s as not found', (_, command) => {
    const error = given([]).when(command).thenThrows(BillingError);
    expect(error).toMatchObject({ code: 'BILLING.PAYMENT_NOT_FOUND', kind: 'not_found' });
  });
});

describe('recording a capture', () => {
  it('grants the price taken for this order while pending', () => {
    given(pending).when(capture()).then([captured()]);
    given(paid).thenState({ status: 'paid', captureId: 'CAP-1' });
  });

  it('takes the money reported by the reconciler as well as by the capture call', () => {
    given(pending)
      .when(capture({ source: 'reconciler' }))
      .then([captured('CAP-1', price, 'reconciler')]);
  });

  it('grants money that arrives after the capture call was marked failed (it is still this sale’s money)', () => {
    given([...pending, failed])
      .when(capture({ source: 'status' }))
      .then([captured('CAP-1', price, 'status')]);
  });

  it('grants an Orange Money callback that names no order (it names our id instead)', () => {
    given(created(orangeIntent))
      .when(capture({ providerRef: null, amount: orangeIntent.price, source: 'callback' }))
      .then([captured('CAP-1', orangeIntent.price, 'callback')]);
  });

  it('is idempotent: the same capture reported again records nothing', () => {
    given(paid)
      .when(capture({ source: 'callback' }))
      .thenNothingHappened();
  });

  it('is idempotent for money already under review: the same capture id records nothing more', () => {
    given([...pending, anomaly('UNDERPAID', { amount: 500, currency: 'EUR' })])
      .when(capture({ captureId: 'CAP-X', amount: { amount: 500, currency: 'EUR' } }))
      .thenNothingHappened();
  });

  describe('records money that does not match the sale as an anomaly, and grants nothing', () => {
    const cases: [string, PaymentEvent[], PaymentCommand, AnomalyKind, PaymentStatus][] = [
      ['less than the price', pending, capture({ amount: { amount: 999, currency: 'EUR' } }), 'UNDERPAID', 'pending'],
      ['more than the price', pending, capture({ amount: { amount: 1_001, currency: 'EUR' } }), 'OVERPAID', 'pending'],
      [
        'another currency',
        pending,
        capture({ amount: { amount: 1_000, currency: 'USD' } }),
        'WRONG_CURRENCY',
        'pending',
      ],
      ['no amount at all', pending, capture({ amount: null }), 'AMOUNT_MISSING', 'pending'],
      [
        'an amount that is not a number',
        pending,
        capture({ amount: { amount: Number.NaN, currency: 'EUR' } }),
        'AMOUNT_MISSING',
        'pending',
      ],
      ['another PayPal order', pending, capture({ providerRef: 'ORDER-2' }), 'UNKNOWN_ORDER', 'pending'],
      ['a PayPal capture naming no order', pending, capture({ providerRef: null }), 'UNKNOWN_ORDER', 'pending'],
      ['a payment already cancelled', [...pending, cancelled], capture(), 'PAID_AFTER_CLOSE', 'cancelled'],
      ['a payment already expired', [...pending, expired], capture(), 'PAID_AFTER_CLOSE', 'expired'],
      ['a second capture of a paid payment', paid, capture({ captureId: 'CAP-2' }), 'PAID_TWICE', 'paid'],
      [
        'a capture of a refunded payment',
        [...paid, refunded],
        capture({ captureId: 'CAP-2' }),
        'PAID_TWICE',
        'refunded',
      ],
    ];

    it.each(cases)('%s', (_, history, command, kind, statusBefore) => {
      const report = command as Extract<PaymentCommand, { type: 'RecordCapture' }>;
      given(history)
        .when(command)
        .then([
          {
            type: 'PaymentAnomalyDetected',
            data: {
              kind,
              captureId: report.captureId,
              reported: report.amount,
              expected: price,
              providerRef: report.providerRef,
              source: report.source,
              statusBefore,
            },
          },
        ]);
    });

    it('an Orange Money callback naming another QR code', () => {
      given(created(orangeIntent))
        .when(capture({ providerRef: 'QR-2', amount: orangeIntent.price, source: 'callback' }))
        .then([
          {
            type: 'PaymentAnomalyDetected',
            data: {
              kind: 'UNKNOWN_ORDER',
              captureId: 'CAP-1',
              reported: orangeIntent.price,
              expected: orangeIntent.price,
              providerRef: 'QR-2',
              source: 'callback',
              statusBefore: 'pending',
            },
          },
        ]);
    });

    it('leaves the payment as it was (pending), the anomaly open', () => {
      const detected = anomaly('UNDERPAID', { amount: 500, currency: 'EUR' });
      given([...pending, detected]).thenState({
        status: 'pending',
        captureId: null,
        anomalies: new Map([['CAP-X', { kind: 'UNDERPAID', reported: detected.data.reported, resolved: false }]]),
      });
    });
  });
});

describe('resolving an anomaly', () => {
  const underpaid = anomaly('UNDERPAID', { amount: 500, currency: 'EUR' });
  const resolvedAs = (resolution: 'granted' | 'refunded', refundId: string | null = null): PaymentEvent => ({
    type: 'PaymentAnomalyResolved',
    data: { captureId: 'CAP-X', resolution, note: 'Checked with the payer', refundId },
  });

  it('grants the money reported: resolved, then captured by the operator for the amount reported', () => {
    given([...pending, underpaid])
      .when(resolve('grant'))
      .then([resolvedAs('granted'), captured('CAP-X', { amount: 500, currency: 'EUR' }, 'operator')]);
  });

  it('grants money reported with no amount at the price', () => {
    given([...pending, anomaly('AMOUNT_MISSING', null)])
      .when(resolve('grant'))
      .then([resolvedAs('granted'), captured('CAP-X', price, 'operator')]);
  });

  it('grants money paid after the payment closed, which reopens it as paid', () => {
    given([...pending, expired, anomaly('PAID_AFTER_CLOSE', price, 'expired')])
      .when(resolve('grant'))
      .then([resolvedAs('granted'), captured('CAP-X', price, 'operator')]);
  });

  it('records a refund at the provider, and grants nothing', () => {
    given([...pending, underpaid])
      .when(resolve('refund'))
      .then([resolvedAs('refunded', 'REF-X')]);
  });

  it('records the refund of money paid twice, the first payment staying paid', () => {
    const twice = anomaly('PAID_TWICE', price, 'paid', 'CAP-2');
    given([...paid, twice])
      .when(resolve('refund', 'CAP-2'))
      .then([
        {
          type: 'PaymentAnomalyResolved',
          data: { captureId: 'CAP-2', resolution: 'refunded', note: 'Checked with the payer', refundId: 'REF-X' },
        },
      ]);
  });

  it('marks the anomaly resolved', () => {
    given([...pending, underpaid, resolvedAs('refunded', 'REF-X')]).thenState({
      status: 'pending',
      anomalies: new Map([['CAP-X', { kind: 'UNDERPAID', reported: underpaid.data.reported, resolved: true }]]),
    });
  });

  it('is idempotent: an anomaly already resolved records nothing', () => {
    given([
      ...pending,
      underpaid,
      resolvedAs('granted'),
      captured('CAP-X', { amount: 500, currency: 'EUR' }, 'operator'),
    ])
      .when(resolve('grant'))
      .thenNothingHappened();
    given([...pending, underpaid, resolvedAs('refunded', 'REF-X')])
      .when(resolve('refund'))
      .thenNothingHappened();
  });

  it('refuses to grant money paid twice: the payment is granted already, refund it instead', () => {
    const error = given([...paid, anomaly('PAID_TWICE', price, 'paid', 'CAP-2')])
      .when(resolve('grant', 'CAP-2'))
      .thenThrows('BILLING.ALREADY_PAID');
    expect(error.kind).toBe('conflict');
  });

  it('refuses to grant an anomaly of a refunded payment', () => {
    given([...paid, anomaly('PAID_TWICE', price, 'paid', 'CAP-2'), refunded])
      .when(resolve('grant', 'CAP-2'))
      .thenThrows('BILLING.ALREADY_PAID');
  });

  it('refuses a capture id with no anomaly', () => {
    const error = given([...pending, underpaid])
      .when(resolve('grant', 'CAP-9'))
      .thenThrows('BILLING.NO_ANOMALY');
    expect(error.kind).toBe('not_found');
  });

  it('refuses the capture that was granted normally (it is no anomaly)', () => {
    given(paid).when(resolve('refund', 'CAP-1')).thenThrows('BILLING.NO_ANOMALY');
  });
});

describe('recording a failure', () => {
  const failure: PaymentCommand = {
    type: 'RecordFailure',
    code: 'PAYPAL.INSTRUMENT_DECLINED',
    message: 'The card was declined.',
  };

  it('marks a pending payment failed, with the provider’s reason', () => {
    given(pending).when(failure).then([failed]);
    given([...pending, failed]).thenState({
      status: 'failed',
      failure: { code: 'PAYPAL.INSTRUMENT_DECLINED', message: 'The card was declined.' },
    });
  });

  it.each([
    ['failed', [...pending, failed]],
    ['paid', paid],
    ['cancelled', [...pending, cancelled]],
    ['expired', [...pending, expired]],
    ['refunded', [...paid, refunded]],
  ] as const)('records nothing on a payment %s', (_, history) => {
    given(history).when(failure).thenNothingHappened();
  });
});

describe('cancelling', () => {
  it('cancels a pending payment, saying who cancelled it', () => {
    given(pending)
      .when({ type: 'Cancel', by: 'provider' })
      .then([{ type: 'PaymentCancelled', data: { by: 'provider' } }]);
    given([...pending, cancelled]).thenState({ status: 'cancelled' });
  });

  it.each([
    ['cancelled (an idempotent repeat)', [...pending, cancelled]],
    ['failed', [...pending, failed]],
    ['expired', [...pending, expired]],
  ] as const)('records nothing on a payment %s', (_, history) => {
    given(history).when({ type: 'Cancel', by: 'user' }).thenNothingHappened();
  });

  it.each([
    ['paid', paid],
    ['refunded', [...paid, refunded]],
  ] as const)('refuses a payment %s', (_, history) => {
    const error = given(history).when({ type: 'Cancel', by: 'user' }).thenThrows('BILLING.ALREADY_PAID');
    expect(error.kind).toBe('conflict');
  });
});

describe('expiring', () => {
  it('expires a pending payment', () => {
    given(pending).when({ type: 'Expire' }).then([expired]);
    given([...pending, expired]).thenState({ status: 'expired' });
  });

  it.each([
    ['expired (an idempotent repeat)', [...pending, expired]],
    ['paid', paid],
    ['failed', [...pending, failed]],
    ['cancelled', [...pending, cancelled]],
    ['refunded', [...paid, refunded]],
  ] as const)('records nothing on a payment %s', (_, history) => {
    given(history).when({ type: 'Expire' }).thenNothingHappened();
  });
});

describe('refunding', () => {
  it('refunds a paid payment for its price, by an operator unless said otherwise', () => {
    given(paid).when(refund()).then([refunded]);
    given([...paid, refunded]).thenState({ status: 'refunded', captureId: 'CAP-1' });
  });

  it('records a partial refund the provider reports for what went back', () => {
    given(paid)
      .when(refund({ amount: { amount: 400, currency: 'EUR' }, source: 'provider' }))
      .then([
        {
          type: 'PaymentRefunded',
          data: {
            amount: { amount: 400, currency: 'EUR' },
            reason: 'Asked by the customer',
            refundId: 'REF-1',
            source: 'provider',
          },
        },
      ]);
  });

  it('records a chargeback as a reversal', () => {
    given(paid)
      .when(refund({ refundId: 'CB-1', reason: 'Chargeback', source: 'provider', reversal: true }))
      .then([
        {
          type: 'PaymentRefunded',
          data: { amount: price, reason: 'Chargeback', refundId: 'CB-1', source: 'provider', reversal: true },
        },
      ]);
  });

  it('is idempotent: the same refund reported again (same refund id) records nothing', () => {
    given([...paid, refunded])
      .when(refund())
      .thenNothingHappened();
    given([...paid, partly])
      .when(refund({ amount: { amount: 400, currency: 'EUR' }, source: 'provider' }))
      .thenNothingHappened();
  });

  it('records nothing for the operator’s full refund of a payment refunded in full already', () => {
    given([...paid, refunded])
      .when(refund({ refundId: 'manual-2' }))
      .thenNothingHappened();
  });

  it('records a chargeback after a partial refund: refunds add up to the capture', () => {
    given([...paid, partly])
      .when(refund({ refundId: 'CB-1', reason: 'Chargeback', amount: eur(600), source: 'provider', reversal: true }))
      .then([
        {
          type: 'PaymentRefunded',
          data: { amount: eur(600), reason: 'Chargeback', refundId: 'CB-1', source: 'provider', reversal: true },
        },
      ]);
  });

  it('records a second partial refund with its own id', () => {
    given([...paid, partly])
      .when(refund({ refundId: 'REF-2', amount: eur(250), source: 'provider' }))
      .then([
        {
          type: 'PaymentRefunded',
          data: { amount: eur(250), reason: 'Asked by the customer', refundId: 'REF-2', source: 'provider' },
        },
      ]);
  });

  it('refunds, at the operator’s command, what the partial refunds left', () => {
    given([...paid, partly])
      .when(refund({ refundId: 'manual-1' }))
      .then([
        {
          type: 'PaymentRefunded',
          data: { amount: eur(600), reason: 'Asked by the customer', refundId: 'manual-1', source: 'operator' },
        },
      ]);
  });

  it('refunds, at the operator’s command, what an operator-granted capture took (not the price)', () => {
    const granted: PaymentEvent = {
      type: 'PaymentAnomalyResolved',
      data: { captureId: 'CAP-X', resolution: 'granted', note: 'Paid the rest in cash', refundId: null },
    };
    given([...pending, anomaly('UNDERPAID', eur(800)), granted, captured('CAP-X', eur(800), 'operator')])
      .when(refund())
      .then([
        {
          type: 'PaymentRefunded',
          data: { amount: eur(800), reason: 'Asked by the customer', refundId: 'REF-1', source: 'operator' },
        },
      ]);
  });

  it('keeps the refund ids and their total; a payment refunded in part shows refunded', () => {
    const chargeback: PaymentEvent = {
      type: 'PaymentRefunded',
      data: { amount: eur(600), reason: 'Chargeback', refundId: 'CB-1', source: 'provider', reversal: true },
    };
    given([...paid, partly]).thenState({ status: 'refunded', refundIds: new Set(['REF-1']), refunded: 400 });
    given([...paid, partly, chargeback]).thenState({
      status: 'refunded',
      captured: price,
      refundIds: new Set(['REF-1', 'CB-1']),
      refunded: 1_000,
    });
  });

  it.each([
    ['more than what the partial refunds left', [...paid, partly], refund({ refundId: 'REF-2', amount: eur(601) })],
    [
      'anything after a full refund (a chargeback)',
      [...paid, refunded],
      refund({ refundId: 'CB-1', amount: price, source: 'provider', reversal: true }),
    ],
    ['more than the capture', paid, refund({ amount: eur(1_001) })],
    ['money in another currency', paid, refund({ amount: { amount: 500, currency: 'USD' } })],
  ] as const)('refuses a refund that gives back %s', (_, history, command) => {
    const error = given([...history])
      .when(command)
      .thenThrows('BILLING.REFUND_EXCEEDS_CAPTURE');
    expect(error.kind).toBe('conflict');
  });

  it.each([
    ['pending', pending],
    ['failed', [...pending, failed]],
    ['cancelled', [...pending, cancelled]],
    ['expired', [...pending, expired]],
  ] as const)('refuses a payment %s: only a paid payment can be refunded', (_, history) => {
    const error = given(history).when(refund()).thenThrows('BILLING.NOT_REFUNDABLE');
    expect(error.kind).toBe('conflict');
  });
});
