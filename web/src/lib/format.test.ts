import { describe, expect, it } from '@jest/globals';
import { formatDuration, formatList, formatMoney, formatNumber, formatRelativeTime } from './format';

const normalise = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatting per language', () => {
  it('writes FCFA after the amount, without decimals', () => {
    expect(normalise(formatMoney(5000, 'XOF', 'fr'))).toBe('5 000 FCFA');
    expect(normalise(formatMoney(5000, 'XOF', 'en'))).toBe('5,000 FCFA');
  });

  it('writes dollars the way each language does: $4.99, 4,99 $', () => {
    expect(formatMoney(4.99, 'USD', 'en')).toBe('$4.99');
    expect(normalise(formatMoney(4.99, 'USD', 'fr'))).toBe('4,99 $');
    expect(normalise(formatMoney(1234.5, 'USD', 'fr'))).toBe('1 234,50 $');
  });

  it('writes euros the way each language does', () => {
    expect(normalise(formatMoney(4.99, 'EUR', 'fr'))).toBe('4,99 €');
    expect(formatMoney(4.99, 'EUR', 'en')).toBe('€4.99');
  });

  it('keeps the decimals asked for, and joins lists the way each language does', () => {
    expect(formatNumber(3, 'en', 1, 1)).toBe('3.0');
    expect(formatNumber(0.319, 'fr', 1, 1)).toBe('0,3');
    expect(formatNumber(3, 'fr', 1)).toBe('3');
    expect(formatList(['a', 'b', 'c'], 'en')).toBe('a, b, and c');
    expect(formatList(['a', 'b', 'c'], 'fr')).toBe('a, b et c');
  });

  it('gives relative times in the chosen language', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(formatRelativeTime('2026-11-22T09:55:00Z', now, 'en')).toBe('5 minutes ago');
    expect(formatRelativeTime('2026-11-22T09:55:00Z', now, 'fr')).toBe('il y a 5 minutes');
    expect(formatRelativeTime('2026-11-21T10:00:00Z', now, 'fr')).toBe('hier');
    expect(formatRelativeTime('2026-11-22T09:59:40Z', now, 'en')).toBe('now');
  });

  it('shows durations as minutes and two-digit seconds', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3600)).toBe('60:00');
  });
});
