import { describe, expect, it } from '@jest/globals';
import { detectCurrency, normaliseProfileType, validatePreferences, validateProfile } from './validation';

const valid = { firstName: 'Awa', lastName: 'Ndiaye', email: 'awa@example.sn' };
const fieldsOf = (body: unknown) => {
  const result = validateProfile(body, 'awa@example.sn');
  return result.ok ? {} : result.fields;
};

describe('profile validation', () => {
  it('accepts a minimal profile and trims it', () => {
    const result = validateProfile({ ...valid, firstName: '  Awa ', city: '  ' }, 'awa@example.sn');
    expect(result).toEqual({
      ok: true,
      value: {
        firstName: 'Awa',
        lastName: 'Ndiaye',
        contactNumber: null,
        profileTypes: [],
        streetAddress: null,
        city: null,
        postalCode: null,
        country: null,
      },
    });
  });

  it('requires the first and last names', () => {
    expect(fieldsOf({ email: 'awa@example.sn' })).toEqual({
      firstName: 'PROFILE.FIRST_NAME_REQUIRED',
      lastName: 'PROFILE.LAST_NAME_REQUIRED',
    });
    expect(fieldsOf({ ...valid, lastName: '   ' })).toEqual({ lastName: 'PROFILE.LAST_NAME_REQUIRED' });
    expect(fieldsOf({ ...valid, firstName: 42 })).toEqual({ firstName: 'PROFILE.FIRST_NAME_REQUIRED' });
  });

  it('keeps the e-mail read-only', () => {
    expect(fieldsOf({ ...valid, email: 'AWA@example.sn' })).toEqual({});
    expect(fieldsOf({ ...valid, email: 'other@example.sn' })).toEqual({
      email: 'PROFILE.EMAIL_READ_ONLY',
    });
  });

  it.each([
    ['+221771234567', true],
    ['221771234567', true],
    ['+1 (415) 555-0100', true],
    ['+33612345678', true],
    ['12', true],
    ['+0771234567', false],
    ['1', false],
    ['+1234567890123456', false],
    ['77 ABC 45', false],
  ])('checks the phone %s (valid: %s)', (phone, ok) => {
    expect(fieldsOf({ ...valid, contactNumber: phone })).toEqual(ok ? {} : { contactNumber: 'PROFILE.INVALID_PHONE' });
    expect(fieldsOf({ ...valid, phone })).toEqual(ok ? {} : { phone: 'PROFILE.INVALID_PHONE' });
  });

  it("offers the spec's countries only", () => {
    const result = validateProfile({ ...valid, country: 'sn' }, 'awa@example.sn');
    expect(result).toMatchObject({ ok: true, value: { country: 'SN' } });
    expect(fieldsOf({ ...valid, country: 'NG' })).toEqual({ country: 'PROFILE.INVALID_COUNTRY' });
  });

  it('accepts both spellings of the profile types and stores one', () => {
    expect(normaliseProfileType('musicProducer')).toBe('MUSIC_PRODUCER');
    expect(normaliseProfileType('PODCASTER')).toBe('PODCASTER');
    const result = validateProfile(
      { ...valid, profileTypes: ['musicProducer', 'MUSIC_PRODUCER', 'socialInfluencer'] },
      'awa@example.sn',
    );
    expect(result).toMatchObject({ ok: true, value: { profileTypes: ['MUSIC_PRODUCER', 'SOCIAL_INFLUENCER'] } });
    expect(fieldsOf({ ...valid, profileTypes: ['DJ'] })).toEqual({
      profileTypes: 'PROFILE.INVALID_PROFILE_TYPE',
    });
    expect(fieldsOf({ ...valid, profileTypes: 'PODCASTER' })).toEqual({
      profileTypes: 'PROFILE.INVALID_PROFILE_TYPE',
    });
  });

  it('reads the street under either name and bounds lengths', () => {
    const result = validateProfile({ ...valid, street: '12 rue Carnot' }, 'awa@example.sn');
    expect(result).toMatchObject({ ok: true, value: { streetAddress: '12 rue Carnot' } });
    expect(fieldsOf({ ...valid, city: 'x'.repeat(101) })).toEqual({ city: 'PROFILE.TOO_LONG' });
  });
});

describe('preferences validation', () => {
  const current = {
    notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
    language: 'fr' as const,
    currency: 'XOF' as const,
  };

  it('merges a partial update over the current preferences', () => {
    expect(validatePreferences({ language: 'en', notificationSettings: { marketingEmails: true } }, current)).toEqual({
      ok: true,
      value: {
        ...current,
        language: 'en',
        notificationSettings: { ...current.notificationSettings, marketingEmails: true },
      },
    });
  });

  it('allows en or fr, and EUR, USD or XOF only', () => {
    expect(validatePreferences({ language: 'wo', currency: 'GBP' }, current)).toEqual({
      ok: false,
      fields: {
        language: 'PREFERENCES.INVALID_LANGUAGE',
        currency: 'PREFERENCES.INVALID_CURRENCY',
      },
    });
    expect(validatePreferences({ notificationSettings: { newFeatures: 'yes' } }, current)).toEqual({
      ok: false,
      fields: { 'notificationSettings.newFeatures': 'PREFERENCES.INVALID_NOTIFICATION_SETTINGS' },
    });
  });

  it('detects the currency from the locale, else the time zone', () => {
    expect(detectCurrency('fr-SN', 'Africa/Dakar')).toBe('XOF');
    expect(detectCurrency('en-US', undefined)).toBe('USD');
    expect(detectCurrency('fr-FR', 'Europe/Paris')).toBe('EUR');
    expect(detectCurrency('fr', 'Africa/Abidjan')).toBe('XOF');
    expect(detectCurrency('en', 'America/Toronto')).toBe('USD');
    expect(detectCurrency(undefined, 'Asia/Tokyo')).toBe('EUR');
  });
});
