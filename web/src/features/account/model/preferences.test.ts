import { describe, expect, it } from '@jest/globals';
import { defaultPreferences, preferencesFrom } from './preferences';

describe('preferences', () => {
  it('start with e-mails on, marketing off, new features on, French and the detected currency', () => {
    expect(defaultPreferences('XOF')).toEqual({
      notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
      language: 'fr',
      currency: 'XOF',
    });
  });

  it('fill missing values after loading with false, English and the detected currency', () => {
    expect(preferencesFrom({ notificationSettings: { marketingEmails: true } }, 'USD')).toEqual({
      notificationSettings: { emailNotifications: false, marketingEmails: true, newFeatures: false },
      language: 'en',
      currency: 'USD',
    });
  });

  it('keep what the server sent', () => {
    expect(
      preferencesFrom(
        {
          notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
          language: 'fr',
          currency: 'EUR',
        },
        'XOF',
      ),
    ).toMatchObject({ language: 'fr', currency: 'EUR' });
  });
});
