import type { Currency } from './format';

const XOF_REGIONS = new Set(['SN', 'CI', 'ML', 'BF', 'TG', 'BJ', 'NE', 'GW']);
const USD_REGIONS = new Set(['US', 'PR', 'EC', 'SV', 'PA']);
const EUR_REGIONS = new Set(
  'FR DE IT ES PT BE NL LU IE AT FI GR SK SI EE LV LT MT CY HR MC AD SM VA RE GP MQ GF YT'.split(' '),
);

function region(tag: string): string | null {
  try {
    return new Intl.Locale(tag).maximize().region ?? null;
  } catch {
    return null;
  }
}

function explicitRegion(tag: string): string | null {
  try {
    return new Intl.Locale(tag).region ?? null;
  } catch {
    return null;
  }
}

/**
 * The preferred currency (spec §4): from the browser locale's region (fr-SN: XOF, en-US: USD, fr-FR: EUR), else
 * from the time zone's region (Europe: EUR, America: USD, Africa: XOF), else EUR.
 */
export function detectCurrency(locales: readonly string[], timeZone: string | undefined): Currency {
  for (const tag of locales) {
    const code = explicitRegion(tag);
    if (!code) continue;
    if (XOF_REGIONS.has(code)) return 'XOF';
    if (USD_REGIONS.has(code)) return 'USD';
    if (EUR_REGIONS.has(code)) return 'EUR';
  }
  const area = timeZone?.split('/')[0];
  if (area === 'Europe') return 'EUR';
  if (area === 'America') return 'USD';
  if (area === 'Africa') return 'XOF';
  // A bare language tag ("fr") says nothing of where the person is; its likely region is the last resort.
  const likely = locales[0] ? region(locales[0]) : null;
  if (likely && XOF_REGIONS.has(likely)) return 'XOF';
  return 'EUR';
}

export function browserCurrency(): Currency {
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  return detectCurrency(navigator.languages ?? [navigator.language], timeZone);
}
