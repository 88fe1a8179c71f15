/**
 * Money and dates in an interface language (en or fr), written the way the web client writes them
 * (`web/src/lib/format.ts`): texts composed on the server, such as notifications, read like the screens around them.
 */
const locale = (language: string): string => (language === 'en' ? 'en-US' : 'fr-FR');
const NBSP = '\u00a0';

/**
 * Intl objects are costly to build (tens of microseconds, the locale data resolved each time) and cheap to reuse:
 * one per language and style, built on first use. Notifications are composed inside projections, on the event loop.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (value === undefined) cache.set(key, (value = make()));
  return value;
}

/**
 * An amount in major units: `$27.99` / `27,99 $`, `€21.99` / `21,99 €`; the CFA franc has no minor unit and is
 * written FCFA after the amount (`12 500 FCFA`).
 */
export function formatMoney(amount: number, currency: string, language: string): string {
  if (currency === 'XOF') {
    const xof = cached(`xof ${language}`, () => new Intl.NumberFormat(locale(language), { maximumFractionDigits: 0 }));
    return `${xof.format(amount)}${NBSP}FCFA`;
  }
  return cached(
    `money ${currency} ${language}`,
    () => new Intl.NumberFormat(locale(language), { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }),
  ).format(amount);
}

/** A whole count with the language's grouping: `1,200` / `1 200`. */
export function formatCount(count: number, language: string): string {
  return cached(`count ${language}`, () => new Intl.NumberFormat(locale(language))).format(count);
}

/** Whether a count takes the singular in a language (French: 0 and 1; English: 1), by Intl.PluralRules. */
export function takesSingular(count: number, language: string): boolean {
  return cached(`plural ${language}`, () => new Intl.PluralRules(locale(language))).select(count) === 'one';
}

/** A day written out: `December 26, 2026` / `26 décembre 2026` (UTC: the server knows no reader's time zone). */
export function formatDay(value: string | number | Date, language: string): string {
  const day = cached(
    `day ${language}`,
    () => new Intl.DateTimeFormat(locale(language), { dateStyle: 'long', timeZone: 'UTC' }),
  );
  return day.format(new Date(value));
}
