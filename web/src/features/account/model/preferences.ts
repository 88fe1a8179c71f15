import type { Currency } from '../../../lib/format';
import type { Preferences, PreferencesAnswer } from '../api/account';

const CURRENCY_CODES: readonly string[] = ['EUR', 'USD', 'XOF'];

/** Before the preferences load: e-mails on, marketing off, new features on, French, the detected currency. */
export function defaultPreferences(detected: Currency): Preferences {
  return {
    notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
    language: 'fr',
    currency: detected,
  };
}

/** After they load, a missing value falls back to false, English, or the detected currency (spec §4). */
export function preferencesFrom(answer: PreferencesAnswer, detected: Currency): Preferences {
  const settings = answer.notificationSettings ?? {};
  return {
    notificationSettings: {
      emailNotifications: settings.emailNotifications ?? false,
      marketingEmails: settings.marketingEmails ?? false,
      newFeatures: settings.newFeatures ?? false,
    },
    language: answer.language === 'fr' ? 'fr' : 'en',
    currency: CURRENCY_CODES.includes(answer.currency ?? '') ? (answer.currency as Currency) : detected,
  };
}
