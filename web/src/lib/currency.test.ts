import { describe, expect, it } from '@jest/globals';
import { detectCurrency } from './currency';

describe('currency detection', () => {
  it.each([
    [['fr-SN'], 'UTC', 'XOF'],
    [['fr-CI', 'fr'], 'Europe/Paris', 'XOF'],
    [['en-US'], 'Africa/Dakar', 'USD'],
    [['fr-FR'], 'Africa/Abidjan', 'EUR'],
    [['en-GB'], 'Europe/London', 'EUR'],
    [['fr'], 'Africa/Dakar', 'XOF'],
    [['en'], 'America/Toronto', 'USD'],
    [['fr'], 'Europe/Paris', 'EUR'],
    [['en'], 'Asia/Tokyo', 'EUR'],
    [[], undefined, 'EUR'],
  ])('%j in %s gives %s', (locales, timeZone, currency) => {
    expect(detectCurrency(locales, timeZone)).toBe(currency);
  });
});
