/** The countries offered (spec §3), with their three-letter codes; names come from the translations. */
export const COUNTRIES = {
  SN: 'SEN',
  FR: 'FRA',
  US: 'USA',
  GB: 'GBR',
  CI: 'CIV',
  ML: 'MLI',
  BF: 'BFA',
  TG: 'TGO',
  BJ: 'BEN',
  NE: 'NER',
  CM: 'CMR',
  CA: 'CAN',
  DE: 'DEU',
  IT: 'ITA',
  ES: 'ESP',
} as const;
export type CountryCode = keyof typeof COUNTRIES;

/** The dropdown's options, sorted by their name in the interface language. */
export function sortedCountries(name: (code: CountryCode) => string, language: string) {
  const collator = new Intl.Collator(language);
  return (Object.keys(COUNTRIES) as CountryCode[])
    .map((code) => ({ code, name: name(code) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}
