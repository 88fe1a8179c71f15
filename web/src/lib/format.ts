/**
 * Dates, numbers and money in the interface language, through Intl (spec §9: FCFA after the amount; the dollar and
 * the euro where each language writes them: `$4.99` / `4,99 $`, `€4.99` / `4,99 €`). The server writes its texts
 * (notifications) the same way (`modules/kernel/src/format.ts`).
 */
import type { Currency } from '@kora/contracts';

export type { Currency };
/** The contract's currencies in the order the pickers offer them: the franc CFA first, for the users in Dakar and Abidjan. */
export const CURRENCY_CHOICES: readonly Currency[] = ['XOF', 'USD', 'EUR'];

const locale = (language: string): string => (language === 'en' ? 'en-US' : 'fr-FR');
const NBSP = '\u00a0';

export function formatNumber(
  value: number,
  language: string,
  maximumFractionDigits = 2,
  minimumFractionDigits = 0,
): string {
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits, minimumFractionDigits }).format(value);
}

/** "a, b, and c" / "a, b et c". */
export function formatList(items: string[], language: string): string {
  return new Intl.ListFormat(locale(language), { style: 'long', type: 'conjunction' }).format(items);
}

export function formatMoney(amount: number, currency: Currency, language: string): string {
  if (currency === 'XOF') {
    // The CFA franc has no minor unit; it is written after the amount as FCFA.
    return `${new Intl.NumberFormat(locale(language), { maximumFractionDigits: 0 }).format(amount)}${NBSP}FCFA`;
  }
  // The narrow symbol: "$" rather than French's "$US" (only dollars of the United States are sold).
  return new Intl.NumberFormat(locale(language), {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
  }).format(amount);
}

export function formatDate(value: string | number | Date, language: string): string {
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'medium' }).format(new Date(value));
}

export function formatDateTime(value: string | number | Date, language: string): string {
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago" / "il y a 5 minutes"; under a minute, "now" / "maintenant". */
export function formatRelativeTime(value: string | number | Date, now: number, language: string): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale(language), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** Seconds as minutes:seconds with two-digit seconds (spec §3, usage history). */
export function formatDuration(totalSeconds: number): string {
  const safe = Math.max(0, Math.round(totalSeconds));
  return `${Math.floor(safe / 60)}:${String(safe % 60).padStart(2, '0')}`;
}
