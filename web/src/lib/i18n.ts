import { LANGUAGES, type Language } from '@kora/contracts';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from './session/storage';

/** The interface languages, the account's (`@kora/contracts`): the server keeps and answers in one of them. */
export { LANGUAGES, type Language };
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

/**
 * Each language's texts (`locales/<language>/index.ts`: one file per namespace) are a chunk of
 * their own: the app loads only the language in use, and the other one if the user switches (the first route's
 * JavaScript budget, docs/benchmarks.md).
 */
const LANGUAGE_TEXTS: Record<Language, () => Promise<{ default: Record<string, object> }>> = {
  en: () => import('../locales/en'),
  fr: () => import('../locales/fr'),
};

/** Adds `language`'s texts to i18next unless they are there already. */
export async function loadLanguage(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, 'common')) return;
  const { default: texts } = await LANGUAGE_TEXTS[language]();
  for (const [namespace, bundle] of Object.entries(texts)) i18n.addResourceBundle(language, namespace, bundle);
}

/**
 * Adds a namespace a lazily loaded feature brings with it (both languages, in the feature's own chunk), so the first
 * route does not carry texts only that feature shows. Idempotent.
 */
export function addFeatureTexts(namespace: string, texts: Record<Language, object>): void {
  for (const language of LANGUAGES) {
    if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, texts[language]);
  }
}

/** Starts i18next in `language`, with the texts given (the tests give both languages; the app loads its own). */
export function setupI18n(language: Language, resources: Resource = {}): typeof i18n {
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
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}

/**
 * At sign-in, the language saved on the account wins over this device's (a French-language browser signing in to an
 * account kept in English switches to English); anything else saved is ignored. True when it switched.
 */
export async function applyAccountLanguage(saved: unknown): Promise<boolean> {
  if (!isLanguage(saved) || saved === currentLanguage()) return false;
  await chooseLanguage(saved);
  return true;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'fr';
}
