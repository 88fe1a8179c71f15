import { describe, expect, it } from '@jest/globals';
import { defaultPreferences } from './preferences';

describe('preferences', () => {
  it('start with e-mails on, marketing off, new features on, French and the detected currency', () => {
    expect(defaultPreferences('XOF')).toEqual({
      notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
      language: 'fr',
      currency: 'XOF',
    });
  });
});
