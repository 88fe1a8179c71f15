import { describe, it } from '@jest/globals';
import { type CreditEvent, creditsStream, type UsageDocument } from '@kora/billing/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { usageHistoryProjection } from './usage-history.projection';

const givenEvents = ProjectionSpecification.for(usageHistoryProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-02T10:00:00.000Z';
const stream = creditsStream('u1');

const bought: CreditEvent = {
  type: 'PackPurchased',
  data: {
    packId: 'pay-1',
    paymentId: 'pay-1',
    planId: 'stems-basic',
    planName: 'Stems Basic',
    service: 'STEM_SEPARATION',
    billingCycle: 'MONTHLY',
    credits: 3,
    startDate: '2026-03-01T00:00:00.000Z',
    endDate: '2026-04-01T00:00:00.000Z',
    price: { amount: 1_000, currency: 'EUR' },
    balance: 3,
  },
};
const spent = (spendId: string, trackId: string, balance: number): CreditEvent => ({
  type: 'CreditSpent',
  data: {
    spendId,
    packId: 'pay-1',
    service: 'STEM_SEPARATION',
    trackId,
    trackName: `${trackId}.wav`,
    trackDuration: 212.5,
    credits: 1,
    balance,
  },
});

const usage: UsageDocument = {
  _id: 'spend-1',
  userId: 'u1',
  date: T0,
  trackId: 't1',
  trackName: 't1.wav',
  serviceType: 'STEM_SEPARATION',
  trackDuration: 212.5,
  creditsUsed: 1,
};

describe('the usage history read model', () => {
  it('records a credit spent: the account, the day, the track and the service', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, bought), log.record(stream, spent('spend-1', 't1', 2))).thenDocuments([usage]);
  });

  it('records one line per credit spent', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, spent('spend-1', 't1', 2)),
      log.record(stream, spent('spend-2', 't2', 1), { occurredAt: T1 }),
    ).thenDocuments([usage, { ...usage, _id: 'spend-2', trackId: 't2', trackName: 't2.wav', date: T1 }]);
  });

  it('lists nothing for packs bought, expired or taken back', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought),
      log.record(stream, { type: 'PackRenewalCancelled', data: { packIds: ['pay-1'] } }),
      log.record(stream, {
        type: 'CreditsRevoked',
        data: { packId: 'pay-1', paymentId: 'pay-1', service: 'STEM_SEPARATION', credits: 2, balance: 0 },
      }),
      log.record(stream, {
        type: 'CreditsExpired',
        data: { packId: 'pay-1', service: 'STEM_SEPARATION', credits: 1, balance: 0 },
      }),
    ).thenDocuments([]);
  });

  it('keeps a line once its credits were taken back: the spend happened', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought),
      log.record(stream, spent('spend-1', 't1', 2)),
      log.record(stream, {
        type: 'CreditsRevoked',
        data: { packId: 'pay-1', paymentId: 'pay-1', service: 'STEM_SEPARATION', credits: 2, balance: 0 },
      }),
    ).thenDocuments([usage]);
  });

  it('changes nothing when an event is applied twice: a spend is listed once', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    const first = log.record(stream, spent('spend-1', 't1', 2));
    givenEvents(first, first).thenDocuments([usage]);
  });
});
