import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en/common.json';
import enMixing from '../locales/en/mixing.json';
import enPayment from '../locales/en/payment.json';
import enStems from '../locales/en/stems.json';
import enStudio from '../locales/en/studio.json';
import fr from '../locales/fr/common.json';
import frMixing from '../locales/fr/mixing.json';
import frPayment from '../locales/fr/payment.json';
import frStems from '../locales/fr/stems.json';
import frStudio from '../locales/fr/studio.json';
import { STORAGE_KEYS } from './session/storage';

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = STORAGE_KEYS.language;

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'fr';
}

/** Stored choice, else the browser's language when it is French or English, else French (spec §4). */
export function initialLanguage(stored: string | null, browser: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'fr';
}

/** One file pair per namespace: `common`, and the studio's, the stems board's, payment's and mixing's (`t('studio:upload.start')`). */
export const resources = {
  en: { common: en, studio: enStudio, stems: enStems, payment: enPayment, mixing: enMixing },
  fr: { common: fr, studio: frStudio, stems: frStems, payment: frPayment, mixing: frMixing },
} as const;

export function setupI18n(language: Language): typeof i18n {
  void i18n.use(initReactI18next).init({
    resources,
    lng: language,
    // A missing translation shows its key (spec §8); the build fails before that happens (i18n.test.ts).
    fallbackLng: false,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = language;
  i18n.on('languageChanged', (next) => {
    document.documentElement.lang = next;
  });
  return i18n;
}

/** Switches the interface language and remembers the choice on this device. */
export async function chooseLanguage(language: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, language);
  await i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'fr';
}
