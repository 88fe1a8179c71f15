import { describe, expect, it } from 'vitest';
import { initialLanguage, resources } from './i18n';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe('translations', () => {
  it('have exactly the same keys in English and French', () => {
    expect(keys(resources.fr.common).sort()).toEqual(keys(resources.en.common).sort());
  });

  it('pick the stored choice, else the browser language, else French', () => {
    expect(initialLanguage('en', ['fr-FR'])).toBe('en');
    expect(initialLanguage(null, ['en-US', 'fr'])).toBe('en');
    expect(initialLanguage(null, ['wo-SN', 'fr-SN'])).toBe('fr');
    expect(initialLanguage(null, ['de-DE'])).toBe('fr');
    expect(initialLanguage('de', [])).toBe('fr');
  });
});
