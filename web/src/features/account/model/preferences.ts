import type { Currency } from '../../../lib/format';
import type { Preferences } from '../api/account';

/**
 * Before the preferences load: e-mails on, marketing off, new features on, French, the detected currency. Once loaded
 * they are the server's, always whole (`@kora/contracts`).
 */
export function defaultPreferences(detected: Currency): Preferences {
  return {
    notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
    language: 'fr',
    currency: detected,
  };
}
