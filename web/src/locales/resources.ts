import en from './en';
import fr from './fr';

/** Both languages at once, for the tests; the app loads only the language in use (`loadLanguage` in lib/i18n). */
export const resources = { en, fr } as const;
