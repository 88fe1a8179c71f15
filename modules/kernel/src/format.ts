/**
 * Money and dates in an interface language (en or fr), written the way the web client writes them
 * (`web/src/lib/format.ts`): texts composed on the server, such as notifications, read like the screens around them.
 */
const locale = (language: string): string => (language === 'en' ? 'en-US' : 'fr-FR');
const NBSP = '\u00a0';

/**
 * An amount in major units: `$27.99` / `27,99 $`, `€21.99` / `21,99 €`; the CFA franc has no minor unit and is
 * written FCFA after the amount (`12 500 FCFA`).
 */
export function formatMoney(amount: number, currency: string, language: string): string {
  if (currency === 'XOF') {
    return `${new Intl.NumberFormat(locale(language), { maximumFractionDigits: 0 }).format(amount)}${NBSP}FCFA`;
  }
  return new Intl.NumberFormat(locale(language), {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
  }).format(amount);
}

/** A day written out: `December 26, 2026` / `26 décembre 2026` (UTC: the server knows no reader's time zone). */
export function formatDay(value: string | number | Date, language: string): string {
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(value));
}
