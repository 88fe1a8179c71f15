import en from './en';
import enMixing from './en/mixing.json';
import fr from './fr';
import frMixing from './fr/mixing.json';

/**
 * Both languages at once, every namespace, for the tests; the app loads only the language in use (`loadLanguage` in
 * lib/i18n), and the mixing studio its own texts when it loads.
 */
export const resources = {
  en: { ...en, mixing: enMixing },
  fr: { ...fr, mixing: frMixing },
} as const;
