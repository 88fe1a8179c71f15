import { COUNTRIES, type CountryCode } from '@kora/contracts';

export type { CountryCode };

/** The dropdown's options, sorted by their name in the interface language. */
export function sortedCountries(name: (code: CountryCode) => string, language: string) {
  const collator = new Intl.Collator(language);
  return (Object.keys(COUNTRIES) as CountryCode[])
    .map((code) => ({ code, name: name(code) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}
