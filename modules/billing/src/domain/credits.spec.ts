import { describe, expect, it } from '@jest/globals';
import { DeciderSpecification } from '@kora/kernel/testing';
import type { CreditEvent, CreditSpent, PackPurchased, PackService } from '../contracts/events';
import { type CreditsCommand, creditsDecider } from './credits';
import { BillingError } from './errors';

const given = DeciderSpecification.for(creditsDecider);

const MARCH = '2026-03-01T00:00:00.000Z';
const APRIL = '2026-04-01T00:00:00.000Z';
const MAY = '2026-05-01T00:00:00.000Z';
/** An instant inside March's pack. */
const NOW = '2026-03-15T12:00:00.000Z';

const purchase = (
  paymentId: string,
  overrides: Partial<Extract<CreditsCommand, { type: 'PurchasePack' }>> = {},
): Extract<CreditsCommand, { type: 'PurchasePack' }> => ({
  type: 'PurchasePack',
  paymentId,
  planId: 'mastering-basic',
  planName: 'Mastering Basic',
  service: 'AI_MASTERING',
  billingCycle: 'MONTHLY',
  credits: 3,
  startDate: MARCH,
  endDate: APRIL,
  price: { amount: 1_000, currency: 'EUR' },
  // A grant starts its pack at the instant it is decided.
  now: overrides.startDate ?? MARCH,
  ...overrides,
});
/** The pack a purchase grants, with the balance its event carries. */
const purchased = (command: Extract<CreditsCommand, { type: 'PurchasePack' }>, balance: number): PackPurchased => {
  const { type: _type, now: _now, ...pack } = command;
  return { type: 'PackPurchased', data: { ...pack, packId: command.paymentId, balance } };
};
const spend = (
  trackId: string,
  service: CreditSpent['data']['service'] = 'AI_MASTERING',
  now = NOW,
): CreditsCommand => ({
  type: 'SpendCredit',
  spendId: `spend-${trackId}`,
  service,
  trackId,
  trackName: `${trackId}.wav`,
  trackDuration: 180,
  now,
});
const spent = (
  trackId: string,
  packId: string,
  balance: number,
  service: CreditSpent['data']['service'] = 'AI_MASTERING',
): CreditSpent => ({
  type: 'CreditSpent',
  data: {
    spendId: `spend-${trackId}`,
    packId,
    service,
    trackId,
    trackName: `${trackId}.wav`,
    trackDuration: 180,
    credits: 1,
    balance,
  },
});
const expiredOf = (packId: string, credits: number, balance: number, service: PackService = 'AI_MASTERING') =>
  ({ type: 'CreditsExpired', data: { packId, service, credits, balance } }) satisfies CreditEvent;
const revokedOf = (packId: string, credits: number, balance: number, service: PackService = 'AI_MASTERING') =>
  ({ type: 'CreditsRevoked', data: { packId, paymentId: packId, service, credits, balance } }) satisfies CreditEvent;

/** March's pack of three mastering credits. */
const march = purchased(purchase('pay-march'), 3);

describe('purchasing a pack', () => {
  it('grants the pack, named by its payment, with the service’s balance after it', () => {
    given([]).when(purchase('pay-march')).then([march]);
    given(march).thenState({
      granted: new Set(['pay-march']),
      packs: new Map([
        [
          'pay-march',
          {
            packId: 'pay-march',
            service: 'AI_MASTERING',
            credits: 3,
            used: 0,
            removed: 0,
            startDate: MARCH,
            endDate: APRIL,
            renewalCancelled: false,
          },
        ],
      ]),
    });
  });

  it('adds a second pack of the same service to the balance', () => {
    const more = purchase('pay-more', { startDate: NOW, endDate: MAY, credits: 5 });
    given([march, spent('t1', 'pay-march', 2)])
      .when(more)
      .then([purchased(more, 2 + 5)]);
  });

  it('counts in the balance only the credits usable when it is granted', () => {
    // March's pack has ended but the expiry pass has not swept it yet: its credits are not usable any more.
    const april = purchase('pay-april', { startDate: APRIL, endDate: MAY, credits: 5 });
    given([march, spent('t1', 'pay-march', 2)])
      .when(april)
      .then([purchased(april, 5)]);
    // A pack that starts later is not usable yet either.
    const later = purchase('pay-later', { startDate: APRIL, endDate: MAY, credits: 5, now: NOW });
    given([march, spent('t1', 'pay-march', 2)])
      .when(later)
      .then([purchased(later, 2)]);
  });

  it('counts the balance of each service apart', () => {
    const stems = purchase('pay-stems', { service: 'STEM_SEPARATION', planId: 'stems-basic', credits: 4 });
    given(march)
      .when(stems)
      .then([purchased(stems, 4)]);
  });

  it('is idempotent: a payment grants its pack once, however often its capture is reported', () => {
    given(march).when(purchase('pay-march')).thenNothingHappened();
  });

  it('grants nothing again for a payment whose credits were since revoked', () => {
    given([march, revokedOf('pay-march', 3, 0)])
      .when(purchase('pay-march'))
      .thenNothingHappened();
  });
});

describe('spending a credit', () => {
  it('spends one credit of a usable pack of the service on the track', () => {
    given(march)
      .when(spend('t1'))
      .then([spent('t1', 'pay-march', 2)]);
    given([march, spent('t1', 'pay-march', 2)]).thenState({ unlocked: new Map([['t1', 'spend-t1']]) });
  });

  it('spends the pack that ends first', () => {
    const yearly = purchased(purchase('pay-year', { billingCycle: 'YEARLY', endDate: '2027-03-01T00:00:00.000Z' }), 6);
    given([yearly, march])
      .when(spend('t1'))
      .then([spent('t1', 'pay-march', 5)]);
  });

  it('spends, of two packs ending together, the one whose id comes first', () => {
    const b = purchased(purchase('pay-b'), 3);
    const a = purchased(purchase('pay-a'), 6);
    given([b, a])
      .when(spend('t1'))
      .then([spent('t1', 'pay-a', 5)]);
  });

  it('moves to the next pack once the first is used up', () => {
    const april = purchased(purchase('pay-later', { endDate: MAY }), 6);
    given([march, april, spent('t1', 'pay-march', 5), spent('t2', 'pay-march', 4), spent('t3', 'pay-march', 3)])
      .when(spend('t4'))
      .then([spent('t4', 'pay-later', 2)]);
  });

  it('reports the balance of the credits still usable: a pack ended but not swept yet is not counted', () => {
    const current = purchased(purchase('pay-current', { startDate: '2026-03-20T00:00:00.000Z', endDate: MAY }), 6);
    // On 2 April, March's pack (3 credits, ended on 1 April) has not been expired by the pass yet.
    given([march, current])
      .when(spend('t1', 'AI_MASTERING', '2026-04-02T00:00:00.000Z'))
      .then([spent('t1', 'pay-current', 2)]);
  });

  it('uses a pack from its start date', () => {
    given(march)
      .when(spend('t1', 'AI_MASTERING', MARCH))
      .then([spent('t1', 'pay-march', 2)]);
  });

  it('is idempotent: a track already paid for is never paid twice', () => {
    given([march, spent('t1', 'pay-march', 2)])
      .when(spend('t1'))
      .thenNothingHappened();
  });

  describe('refuses when no usable credit is left', () => {
    const cases: [string, CreditEvent[], CreditsCommand][] = [
      ['with no pack at all', [], spend('t1')],
      ['with credits of another service only', [march], spend('t1', 'STEM_SEPARATION')],
      ['for AI mixing, which no pack grants', [march], spend('s1', 'AI_MIXING')],
      [
        'with every credit spent',
        [march, spent('t1', 'pay-march', 2), spent('t2', 'pay-march', 1), spent('t3', 'pay-march', 0)],
        spend('t4'),
      ],
      ['before the pack starts', [march], spend('t1', 'AI_MASTERING', '2026-02-28T23:59:59.999Z')],
      ['at the pack’s end date (it is usable until then, not on it)', [march], spend('t1', 'AI_MASTERING', APRIL)],
      ['once its credits expired', [march, expiredOf('pay-march', 3, 0)], spend('t1')],
      ['once its credits were revoked', [march, revokedOf('pay-march', 3, 0)], spend('t1')],
    ];

    it.each(cases)('%s', (_, history, command) => {
      const error = given(history).when(command).thenThrows(BillingError);
      expect(error).toMatchObject({ code: 'BILLING.INSUFFICIENT_CREDITS', kind: 'payment_required' });
    });
  });
});

describe('cancelling a renewal', () => {
  it('refuses: a pack is paid once and never renews, so there is no renewal to cancel', () => {
    const error = given(march)
      .when({ type: 'CancelRenewal', packId: 'pay-march', now: NOW })
      .thenThrows('BILLING.PACK_NOT_RENEWING');
    expect(error.kind).toBe('conflict');
  });

  it('refuses a pack the account does not hold', () => {
    const error = given(march)
      .when({ type: 'CancelRenewal', packId: 'pay-other', now: NOW })
      .thenThrows('BILLING.PACK_NOT_FOUND');
    expect(error.kind).toBe('not_found');
  });

  it('refuses a pack whose end date has passed', () => {
    given(march).when({ type: 'CancelRenewal', packId: 'pay-march', now: APRIL }).thenThrows('BILLING.PACK_NOT_FOUND');
  });

  it('still folds a cancellation recorded by earlier versions, which changes nothing else', () => {
    given([march, { type: 'PackRenewalCancelled', data: { packIds: ['pay-march', 'pay-gone'] } }]).thenState({
      packs: new Map([
        [
          'pay-march',
          {
            packId: 'pay-march',
            service: 'AI_MASTERING',
            credits: 3,
            used: 0,
            removed: 0,
            startDate: MARCH,
            endDate: APRIL,
            renewalCancelled: true,
          },
        ],
      ]),
    });
  });
});

describe('expiring credits', () => {
  it('expires what a pack still holds once its end date is reached', () => {
    given([march, spent('t1', 'pay-march', 2)])
      .when({ type: 'ExpireCredits', now: APRIL })
      .then([expiredOf('pay-march', 2, 0)]);
  });

  it('expires each ended pack, the balance going down event by event', () => {
    const stems = purchased(purchase('pay-stems', { service: 'STEM_SEPARATION' }), 3);
    const early = purchased(purchase('pay-early', { endDate: '2026-03-20T00:00:00.000Z', credits: 2 }), 5);
    const later = purchased(purchase('pay-later', { endDate: MAY, credits: 4 }), 9);
    given([march, stems, early, later])
      .when({ type: 'ExpireCredits', now: APRIL })
      .then([
        // The balance is what is usable then: the later pack's 4 (the early pack, ended too, no longer counts).
        expiredOf('pay-march', 3, 4),
        expiredOf('pay-stems', 3, 0, 'STEM_SEPARATION'),
        expiredOf('pay-early', 2, 4),
      ]);
  });

  it('leaves a pack whose end date has not come', () => {
    given(march).when({ type: 'ExpireCredits', now: NOW }).thenNothingHappened();
  });

  it('has nothing to expire in a pack used up', () => {
    given([march, spent('t1', 'pay-march', 2), spent('t2', 'pay-march', 1), spent('t3', 'pay-march', 0)])
      .when({ type: 'ExpireCredits', now: APRIL })
      .thenNothingHappened();
  });

  it('is idempotent: credits expired once are not expired again', () => {
    given([march, expiredOf('pay-march', 3, 0)])
      .when({ type: 'ExpireCredits', now: MAY })
      .thenNothingHappened();
  });
});

describe('revoking the credits of a refunded pack', () => {
  it('takes back the credits not spent; those spent stay spent', () => {
    given([march, spent('t1', 'pay-march', 2)])
      .when({ type: 'RevokeCredits', paymentId: 'pay-march', now: NOW })
      .then([revokedOf('pay-march', 2, 0)]);
    given([march, spent('t1', 'pay-march', 2), revokedOf('pay-march', 2, 0)]).thenState({
      unlocked: new Map([['t1', 'spend-t1']]),
    });
  });

  it('leaves the other packs’ usable credits in the balance', () => {
    const more = purchased(purchase('pay-more', { startDate: NOW, endDate: MAY, credits: 5 }), 8);
    given([march, more])
      .when({ type: 'RevokeCredits', paymentId: 'pay-march', now: NOW })
      .then([revokedOf('pay-march', 3, 5)]);
  });

  it('is a no-op at a second refund of the payment: the credits went at the first', () => {
    given([march, spent('t1', 'pay-march', 2), revokedOf('pay-march', 2, 0)])
      .when({ type: 'RevokeCredits', paymentId: 'pay-march', now: NOW })
      .thenNothingHappened();
  });

  it('is idempotent: a pack revoked once has nothing more to take back', () => {
    given([march, revokedOf('pay-march', 3, 0)])
      .when({ type: 'RevokeCredits', paymentId: 'pay-march', now: NOW })
      .thenNothingHappened();
  });

  it('has nothing to take back from a pack whose credits expired', () => {
    given([march, expiredOf('pay-march', 3, 0)])
      .when({ type: 'RevokeCredits', paymentId: 'pay-march', now: NOW })
      .thenNothingHappened();
  });

  it('refuses a payment that granted no pack', () => {
    const error = given(march)
      .when({ type: 'RevokeCredits', paymentId: 'pay-track', now: NOW })
      .thenThrows('BILLING.PACK_NOT_FOUND');
    expect(error.kind).toBe('not_found');
  });
});
