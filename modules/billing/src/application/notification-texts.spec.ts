import { describe, expect, it } from '@jest/globals';
import type { PackPurchased } from '../contracts/events';
import { packPurchasedTexts, paymentFailedTexts } from './notification-texts';

/** Intl writes narrow no-break spaces in French numbers: compared as plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const pack = (over: Partial<PackPurchased['data']>): PackPurchased['data'] => ({
  packId: 'p1',
  paymentId: 'p1',
  planId: 'mastering-pro',
  planName: 'Pro',
  service: 'AI_MASTERING',
  billingCycle: 'MONTHLY',
  credits: 20,
  startDate: '2026-11-26T10:00:00.000Z',
  endDate: '2026-12-26T10:00:00.000Z',
  price: { amount: 2199, currency: 'EUR' },
  balance: 20,
  ...over,
});

describe('the billing notifications, in each language', () => {
  it('write the price and the end date as each language does, not "21.99 EUR" and "2026-12-26"', () => {
    const { message } = packPurchasedTexts(pack({}));
    expect(message.en).toBe('Your Pro pack (€21.99) adds 20 credits, usable until December 26, 2026.');
    expect(plain(message.fr)).toBe(
      'Votre pack Pro (21,99 €) ajoute 20 crédits, utilisables jusqu’au 26 décembre 2026.',
    );
  });

  it('write dollars and CFA francs the way each language does', () => {
    const dollars = packPurchasedTexts(pack({ price: { amount: 2799, currency: 'USD' } })).message;
    expect(dollars.en).toContain('($27.99)');
    expect(plain(dollars.fr)).toContain('(27,99 $)');
    const francs = packPurchasedTexts(pack({ price: { amount: 37500, currency: 'XOF' } })).message;
    expect(plain(francs.en)).toContain('(37,500 FCFA)');
    expect(plain(francs.fr)).toContain('(37 500 FCFA)');
  });

  it('agree with the number of credits (Intl.PluralRules)', () => {
    const one = packPurchasedTexts(pack({ credits: 1 })).message;
    expect(one.en).toContain('adds 1 credit, usable');
    expect(one.fr).toContain('ajoute 1 crédit, utilisable jusqu’au');
  });

  it('say why a payment failed when the provider said, else that nothing was charged', () => {
    expect(paymentFailedTexts('ORANGE_MONEY.INSUFFICIENT_BALANCE').message.fr).toContain('solde était insuffisant');
    expect(paymentFailedTexts('PAYPAL.INSTRUMENT_DECLINED').message.en).toContain('card was declined');
    const unknown = paymentFailedTexts('ORANGE_MONEY.FAILED').message;
    expect(unknown.en).toBe('The payment could not be completed. Nothing was charged; please try again.');
    expect(paymentFailedTexts('PAYPAL.SOMETHING_NEW').message).toEqual(unknown);
  });
});
