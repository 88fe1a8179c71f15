import { describe, expect, it } from '@jest/globals';
import {
  type CreditAccountDocument,
  type CreditEvent,
  creditsStream,
  type PackEntry,
  type PackPurchased,
} from '@kora/billing/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { creditAccountsProjection } from './credit-accounts.projection';

const givenEvents = ProjectionSpecification.for(creditAccountsProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-10T10:00:00.000Z';
const T2 = '2026-04-01T00:05:00.000Z';
const MARCH = '2026-03-01T00:00:00.000Z';
const APRIL = '2026-04-01T00:00:00.000Z';
const MAY = '2026-05-01T00:00:00.000Z';
const stream = creditsStream('u1');

const bought = (packId: string, overrides: Partial<PackPurchased['data']> = {}): PackPurchased => ({
  type: 'PackPurchased',
  data: {
    packId,
    paymentId: packId,
    planId: 'mastering-basic',
    planName: 'Mastering Basic',
    service: 'AI_MASTERING',
    billingCycle: 'MONTHLY',
    credits: 3,
    startDate: MARCH,
    endDate: APRIL,
    price: { amount: 1_000, currency: 'EUR' },
    balance: 3,
    ...overrides,
  },
});
const spent = (trackId: string, packId: string, balance: number): CreditEvent => ({
  type: 'CreditSpent',
  data: {
    spendId: `spend-${trackId}`,
    packId,
    service: 'AI_MASTERING',
    trackId,
    trackName: `${trackId}.wav`,
    trackDuration: 180,
    credits: 1,
    balance,
  },
});

const marchPack: PackEntry = {
  packId: 'pay-march',
  planId: 'mastering-basic',
  planName: 'Mastering Basic',
  service: 'AI_MASTERING',
  billingCycle: 'MONTHLY',
  credits: 3,
  used: 0,
  removed: 0,
  startDate: MARCH,
  endDate: APRIL,
  renewalCancelled: false,
};
const aprilPack: PackEntry = { ...marchPack, packId: 'pay-april', credits: 5, startDate: APRIL, endDate: MAY };
const account: CreditAccountDocument = { _id: 'u1', packs: [marchPack], expiresNext: APRIL, updatedAt: T0 };

describe('the credit accounts read model (the current subscription)', () => {
  it('makes the account from its first pack, which expires next', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, bought('pay-march'))).thenDocument('u1', account);
  });

  it('lists every pack bought, in order, the earliest end date expiring next', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-april', { credits: 5, startDate: APRIL, endDate: MAY, balance: 5 })),
      log.record(stream, bought('pay-march', { balance: 8 }), { occurredAt: T1 }),
    ).thenDocument('u1', { _id: 'u1', packs: [aprilPack, marchPack], expiresNext: APRIL, updatedAt: T1 });
  });

  it('counts the credits spent on the pack that paid', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-march')),
      log.record(stream, bought('pay-april', { credits: 5, startDate: APRIL, endDate: MAY, balance: 8 })),
      log.record(stream, spent('t1', 'pay-march', 7), { occurredAt: T1 }),
    ).thenDocument('u1', {
      _id: 'u1',
      packs: [{ ...marchPack, used: 1 }, aprilPack],
      expiresNext: APRIL,
      updatedAt: T1,
    });
  });

  it('no longer expires a pack used up: the next pack with credits does', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-march')),
      log.record(stream, bought('pay-april', { credits: 5, startDate: APRIL, endDate: MAY, balance: 8 })),
      log.record(stream, spent('t1', 'pay-march', 7)),
      log.record(stream, spent('t2', 'pay-march', 6)),
      log.record(stream, spent('t3', 'pay-march', 5), { occurredAt: T1 }),
    ).thenDocument('u1', {
      _id: 'u1',
      packs: [{ ...marchPack, used: 3 }, aprilPack],
      expiresNext: MAY,
      updatedAt: T1,
    });
  });

  it('has nothing left to expire once every credit is spent', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-march')),
      log.record(stream, spent('t1', 'pay-march', 2)),
      log.record(stream, spent('t2', 'pay-march', 1)),
      log.record(stream, spent('t3', 'pay-march', 0), { occurredAt: T1 }),
    ).thenDocument('u1', { ...account, packs: [{ ...marchPack, used: 3 }], expiresNext: null, updatedAt: T1 });
  });

  it('marks the packs whose renewal was cancelled (recorded by earlier versions)', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-march')),
      log.record(stream, bought('pay-april', { credits: 5, startDate: APRIL, endDate: MAY, balance: 8 })),
      log.record(stream, { type: 'PackRenewalCancelled', data: { packIds: ['pay-april'] } }, { occurredAt: T1 }),
    ).thenDocument('u1', {
      _id: 'u1',
      packs: [marchPack, { ...aprilPack, renewalCancelled: true }],
      expiresNext: APRIL,
      updatedAt: T1,
    });
  });

  it('removes the credits that expired, and the next pack expires next', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-march')),
      log.record(stream, bought('pay-april', { credits: 5, startDate: APRIL, endDate: MAY, balance: 8 })),
      log.record(stream, spent('t1', 'pay-march', 7)),
      log.record(
        stream,
        { type: 'CreditsExpired', data: { packId: 'pay-march', service: 'AI_MASTERING', credits: 2, balance: 5 } },
        { occurredAt: T2 },
      ),
    ).thenDocument('u1', {
      _id: 'u1',
      packs: [{ ...marchPack, used: 1, removed: 2 }, aprilPack],
      expiresNext: MAY,
      updatedAt: T2,
    });
  });

  it('removes the credits a refund took back, those spent staying spent', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-march')),
      log.record(stream, spent('t1', 'pay-march', 2)),
      log.record(
        stream,
        {
          type: 'CreditsRevoked',
          data: { packId: 'pay-march', paymentId: 'pay-march', service: 'AI_MASTERING', credits: 2, balance: 0 },
        },
        { occurredAt: T1 },
      ),
    ).thenDocument('u1', {
      ...account,
      packs: [{ ...marchPack, used: 1, removed: 2 }],
      expiresNext: null,
      updatedAt: T1,
    });
  });

  it('keeps each account in its own document', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, bought('pay-march')),
      log.record(creditsStream('u2'), bought('pay-kofi')),
    ).thenDocuments([account, { ...account, _id: 'u2', packs: [{ ...marchPack, packId: 'pay-kofi' }] }]);
  });

  it('changes nothing when an event is applied twice: a credit spent once is counted once', () => {
    const log = eventLog<CreditEvent>({ occurredAt: T0 });
    const first = log.record(stream, bought('pay-march'));
    const spend = log.record(stream, spent('t1', 'pay-march', 2), { occurredAt: T1 });
    givenEvents(first, spend, spend, first).thenDocument(
      'u1',
      expect.objectContaining({ packs: [{ ...marchPack, used: 1 }], updatedAt: T1 }),
    );
  });
});
