import { describe, expect, it } from '@jest/globals';
import type { DomainEvent, RecordedEvent } from '@kora/kernel';
import { eventLog } from '@kora/kernel/testing';
import type { CreditEvent, Money, PaymentEvent, PaymentIntentCreated } from '../contracts/events';
import { LedgerAudit } from './ledger-audit';

const MARCH = '2026-03-01T00:00:00.000Z';
const APRIL = '2026-04-01T00:00:00.000Z';
const MAY = '2026-05-01T00:00:00.000Z';
const T1 = '2026-03-10T10:00:00.000Z';
const T2 = '2026-03-12T10:00:00.000Z';
const T3 = '2026-03-20T10:00:00.000Z';

const eur = (amount: number): Money => ({ amount, currency: 'EUR' });
const price = eur(1_000);

const intentOf = (paymentId: string, overrides: Partial<PaymentIntentCreated['data']> = {}) =>
  ({
    type: 'PaymentIntentCreated',
    data: {
      paymentId,
      ownerId: 'u1',
      provider: 'PAYPAL',
      providerRef: `ORDER-${paymentId}`,
      kind: 'PACK',
      planId: 'mastering-basic',
      planName: 'Mastering Basic',
      service: 'AI_MASTERING',
      trackId: null,
      billingCycle: 'MONTHLY',
      credits: 3,
      price,
      catalogueVersion: '2026-03',
      expiresAt: null,
      mode: 'sandbox',
      ...overrides,
    },
  }) satisfies PaymentEvent;

const packOf = (paymentId: string, startDate: string, endDate: string, balance: number) =>
  ({
    type: 'PackPurchased',
    data: {
      packId: paymentId,
      paymentId,
      planId: 'mastering-basic',
      planName: 'Mastering Basic',
      service: 'AI_MASTERING',
      billingCycle: 'MONTHLY',
      credits: 3,
      startDate,
      endDate,
      price,
      balance,
    },
  }) satisfies CreditEvent;

const refundOf = (refundId: string, amount: Money, reversal = false) =>
  ({
    type: 'PaymentRefunded',
    data: { amount, reason: 'test', refundId, source: 'provider', ...(reversal ? { reversal: true } : {}) },
  }) satisfies PaymentEvent;

/** A log of the billing streams of account u1. */
function ledger() {
  const log = eventLog<DomainEvent>({ userId: 'u1', occurredAt: MARCH });
  const events: RecordedEvent[] = [];
  const record = (stream: string, event: PaymentEvent | CreditEvent | DomainEvent, at: string, causationId?: string) =>
    events.push(
      log.record(stream, event, { occurredAt: at, ...(causationId ? { causationId } : {}) }) as RecordedEvent,
    );
  /** Pack p1 of March, sold, captured and granted at MARCH. */
  const paidPack = () => {
    record('payment-p1', intentOf('p1'), MARCH);
    record(
      'payment-p1',
      { type: 'PaymentCaptured', data: { captureId: 'CAP-1', amount: price, source: 'capture' } },
      MARCH,
    );
    record('credits-u1', packOf('p1', MARCH, APRIL, 3), MARCH, 'p1');
  };
  const audit = () => {
    const audit = new LedgerAudit({ now: T3 });
    for (const event of events) audit.add(event);
    return audit.finish();
  };
  return { record, paidPack, audit };
}

const revoked = (credits: number, balance: number) =>
  ({
    type: 'CreditsRevoked',
    data: { packId: 'p1', paymentId: 'p1', service: 'AI_MASTERING', credits, balance },
  }) satisfies CreditEvent;

describe('the audit of refunds', () => {
  it('is clean for a partial refund, then a chargeback of the rest: both netted out of the revenue', () => {
    const { record, paidPack, audit } = ledger();
    paidPack();
    record('payment-p1', refundOf('REF-1', eur(400)), T1);
    record('credits-u1', revoked(3, 0), T1);
    record('payment-p1', refundOf('CB-1', eur(600), true), T2);
    const report = audit();
    expect(report.violations).toEqual([]);
    expect(report.revenue).toEqual([
      { currency: 'EUR', provider: 'PAYPAL', captures: 1, captured: 1_000, refunds: 2, refunded: 1_000, net: 0 },
    ]);
  });

  it('flags refunds that together give back more than the capture', () => {
    const { record, paidPack, audit } = ledger();
    paidPack();
    record('payment-p1', refundOf('REF-1', eur(400)), T1);
    record('credits-u1', revoked(3, 0), T1);
    record('payment-p1', refundOf('CB-1', eur(700), true), T2);
    const violations = audit().violations;
    expect(violations.map((v) => v.rule)).toEqual(['payment.amount']);
    expect(violations[0]!.message).toBe('payment p1 refunded 1100 EUR in 2 refunds, captured 1000 EUR');
    expect(violations[0]!.events.map((e) => e.type)).toEqual([
      'PaymentIntentCreated',
      'PaymentRefunded',
      'PaymentRefunded',
    ]);
  });

  it('flags a refund in another currency than the capture', () => {
    const { record, paidPack, audit } = ledger();
    paidPack();
    record('payment-p1', refundOf('REF-1', { amount: 400, currency: 'USD' }), T1);
    record('credits-u1', revoked(3, 0), T1);
    expect(audit().violations.map((v) => v.rule)).toEqual(['payment.amount']);
  });

  it('flags one refund id recorded twice, and counts it once', () => {
    const { record, paidPack, audit } = ledger();
    paidPack();
    record('payment-p1', refundOf('REF-1', eur(400)), T1);
    record('credits-u1', revoked(3, 0), T1);
    record('payment-p1', refundOf('REF-1', eur(400)), T2);
    const report = audit();
    expect(report.violations.map((v) => [v.rule, v.message])).toEqual([
      ['payment.refunded-twice', 'payment p1 records refund REF-1 twice'],
    ]);
    expect(report.revenue[0]).toMatchObject({ refunds: 1, refunded: 400 });
  });
});

describe('the audit of the balance credit events carry', () => {
  /** March's pack p1 (3 credits, ends 1 April, not expired yet) and p2 (3 credits, 20 March to May). */
  const twoPacks = (spendBalance: number) => {
    const { record, paidPack, audit } = ledger();
    paidPack();
    record('payment-p2', intentOf('p2'), T3);
    record(
      'payment-p2',
      { type: 'PaymentCaptured', data: { captureId: 'CAP-2', amount: price, source: 'capture' } },
      T3,
    );
    record('credits-u1', packOf('p2', T3, MAY, 6), T3, 'p2');
    const at = '2026-04-02T00:00:00.000Z';
    const spend = {
      type: 'CreditSpent',
      data: {
        spendId: 's1',
        packId: 'p2',
        service: 'AI_MASTERING',
        trackId: 't1',
        trackName: 't1.wav',
        trackDuration: 180,
        credits: 1,
        balance: spendBalance,
      },
    } satisfies CreditEvent;
    record('credits-u1', spend, at);
    record('track-t1', { type: 'TrackUnlocked', data: { via: 'credit' } }, at, 's1');
    return audit();
  };

  it('is the credits usable at the event’s instant: a pack ended but not expired yet is not counted', () => {
    expect(twoPacks(2).violations).toEqual([]);
  });

  it('flags a balance that counts a pack past its end date', () => {
    expect(twoPacks(5).violations.map((v) => [v.rule, v.message])).toEqual([
      ['balance.mismatch', 'AI_MASTERING balance recorded as 5, the replay says 2 usable at 2026-04-02T00:00:00.000Z'],
    ]);
  });
});
