import {
  COUNTRIES,
  CURRENCIES,
  type CountryCode,
  type Currency,
  type Language,
  LANGUAGES,
  type NotificationSettings,
  type Preferences,
  PROFILE_TYPES,
  type ProfileType,
} from '../contracts/events';
import type { FieldCode, PreferencesUpdate, ProfileUpdate, Unchecked } from '@kora/contracts';

/**
 * The spec's validation rules, enforced on the server (the client's checks are a convenience). Each failure is an
 * error code (`MODULE.PROBLEM`, docs/api.md) per field; the client turns it into its own words
 * (web/src/lib/error-codes.ts).
 */
export type Validated<T> = { ok: true; value: T } | { ok: false; fields: Record<string, FieldCode> };

/** The codes `validateProfile` puts in `fields`. */
export const PROFILE_FIELD_CODES = {
  firstNameRequired: 'PROFILE.FIRST_NAME_REQUIRED',
  lastNameRequired: 'PROFILE.LAST_NAME_REQUIRED',
  tooLong: 'PROFILE.TOO_LONG',
  emailReadOnly: 'PROFILE.EMAIL_READ_ONLY',
  invalidPhone: 'PROFILE.INVALID_PHONE',
  invalidPostalCode: 'PROFILE.INVALID_POSTAL_CODE',
  invalidCountry: 'PROFILE.INVALID_COUNTRY',
  invalidProfileType: 'PROFILE.INVALID_PROFILE_TYPE',
} as const satisfies Record<string, FieldCode>;

/** The codes `validatePreferences` (and the language endpoint) put in `fields`. */
export const PREFERENCES_FIELD_CODES = {
  invalidLanguage: 'PREFERENCES.INVALID_LANGUAGE',
  invalidCurrency: 'PREFERENCES.INVALID_CURRENCY',
  invalidNotificationSettings: 'PREFERENCES.INVALID_NOTIFICATION_SETTINGS',
} as const satisfies Record<string, FieldCode>;

/** Optional +, a first digit 1 to 9, then 1 to 14 more digits (E.164 without separators). */
export const PHONE = /^\+?[1-9]\d{1,14}$/;

export interface ProfileInput {
  firstName: string;
  lastName: string;
  contactNumber: string | null;
  profileTypes: ProfileType[];
  streetAddress: string | null;
  city: string | null;
  postalCode: string | null;
  country: CountryCode | null;
}

const LOWER_CAMEL: Record<string, ProfileType> = {
  musicProducer: 'MUSIC_PRODUCER',
  soundEngineer: 'SOUND_ENGINEER',
  professionalArtist: 'PROFESSIONAL_ARTIST',
  podcaster: 'PODCASTER',
  socialInfluencer: 'SOCIAL_INFLUENCER',
  other: 'OTHER',
};

/** Accepts both spellings the spec shows (`MUSIC_PRODUCER` and `musicProducer`) and stores the first. */
export function normaliseProfileType(value: unknown): ProfileType | null {
  if (typeof value !== 'string') return null;
  if ((PROFILE_TYPES as readonly string[]).includes(value)) return value as ProfileType;
  return Object.hasOwn(LOWER_CAMEL, value) ? LOWER_CAMEL[value]! : null;
}

const LIMITS = { name: 100, street: 200, city: 100, postalCode: 20 } as const;

/** A trimmed string, or null when absent or blank. */
function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * A profile as it arrives: the contract's `ProfileUpdate`, nothing in it trusted before it is checked, and the spec's
 * other spellings (`phone`, `street`) taken too.
 */
type ProfileBody = Unchecked<ProfileUpdate> & { phone?: unknown; street?: unknown };

/**
 * Validates a whole profile as the client sends it. Field names follow the spec's two readings: `contactNumber` or
 * `phone`, `streetAddress` or `street`. The e-mail is read-only: sending a different one is an error.
 */
export function validateProfile(body: unknown, currentEmail: string): Validated<ProfileInput> {
  const fields: Record<string, FieldCode> = {};
  const input = (typeof body === 'object' && body !== null ? body : {}) as ProfileBody;
  const stringOrFail = (key: keyof ProfileBody, value: unknown, code: FieldCode): string | null => {
    if (value !== undefined && value !== null && typeof value !== 'string') {
      fields[key] = code;
      return null;
    }
    return text(value as string | null | undefined);
  };

  const firstName = stringOrFail('firstName', input.firstName, PROFILE_FIELD_CODES.firstNameRequired);
  if (!firstName) fields.firstName = PROFILE_FIELD_CODES.firstNameRequired;
  else if (firstName.length > LIMITS.name) fields.firstName = PROFILE_FIELD_CODES.tooLong;
  const lastName = stringOrFail('lastName', input.lastName, PROFILE_FIELD_CODES.lastNameRequired);
  if (!lastName) fields.lastName = PROFILE_FIELD_CODES.lastNameRequired;
  else if (lastName.length > LIMITS.name) fields.lastName = PROFILE_FIELD_CODES.tooLong;

  if (input.email !== undefined && input.email !== null && input.email !== '') {
    if (typeof input.email !== 'string' || input.email.trim().toLowerCase() !== currentEmail.toLowerCase()) {
      fields.email = PROFILE_FIELD_CODES.emailReadOnly;
    }
  }

  const phoneKey = input.contactNumber !== undefined ? 'contactNumber' : 'phone';
  const rawPhone = stringOrFail(phoneKey, input.contactNumber ?? input.phone, PROFILE_FIELD_CODES.invalidPhone);
  const contactNumber = rawPhone === null ? null : rawPhone.replace(/[\s().-]/g, '');
  if (contactNumber !== null && !PHONE.test(contactNumber)) fields[phoneKey] = PROFILE_FIELD_CODES.invalidPhone;

  const streetKey = input.streetAddress !== undefined ? 'streetAddress' : 'street';
  const streetAddress = stringOrFail(streetKey, input.streetAddress ?? input.street, PROFILE_FIELD_CODES.tooLong);
  if (streetAddress && streetAddress.length > LIMITS.street) fields[streetKey] = PROFILE_FIELD_CODES.tooLong;
  const city = stringOrFail('city', input.city, PROFILE_FIELD_CODES.tooLong);
  if (city && city.length > LIMITS.city) fields.city = PROFILE_FIELD_CODES.tooLong;
  const postalCode = stringOrFail('postalCode', input.postalCode, PROFILE_FIELD_CODES.invalidPostalCode);
  if (postalCode && postalCode.length > LIMITS.postalCode) fields.postalCode = PROFILE_FIELD_CODES.invalidPostalCode;

  let country: CountryCode | null = null;
  const rawCountry = stringOrFail('country', input.country, PROFILE_FIELD_CODES.invalidCountry);
  if (rawCountry !== null) {
    const upper = rawCountry.toUpperCase();
    if (upper in COUNTRIES) country = upper as CountryCode;
    else fields.country = PROFILE_FIELD_CODES.invalidCountry;
  }

  const profileTypes: ProfileType[] = [];
  if (input.profileTypes !== undefined && input.profileTypes !== null) {
    if (!Array.isArray(input.profileTypes)) fields.profileTypes = PROFILE_FIELD_CODES.invalidProfileType;
    else {
      for (const raw of input.profileTypes) {
        const type = normaliseProfileType(raw);
        if (!type) fields.profileTypes = PROFILE_FIELD_CODES.invalidProfileType;
        else if (!profileTypes.includes(type)) profileTypes.push(type);
      }
    }
  }

  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    value: {
      firstName: firstName!,
      lastName: lastName!,
      contactNumber,
      profileTypes,
      streetAddress,
      city,
      postalCode,
      country,
    },
  };
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** The notification settings, each a switch of its own. */
const NOTIFICATION_SETTINGS = ['emailNotifications', 'marketingEmails', 'newFeatures'] as const satisfies ReadonlyArray<
  keyof NotificationSettings
>;

/** Validates preferences; a missing part keeps its current value (the spec's client sends the whole object). */
export function validatePreferences(body: unknown, current: Preferences): Validated<Preferences> {
  const fields: Record<string, FieldCode> = {};
  // The contract's `PreferencesUpdate` as it arrives: nothing in it trusted before it is checked.
  const input = (typeof body === 'object' && body !== null ? body : {}) as Unchecked<PreferencesUpdate>;
  const language = input.language ?? current.language;
  if (!isLanguage(language)) fields.language = PREFERENCES_FIELD_CODES.invalidLanguage;
  const currency = input.currency ?? current.currency;
  if (!isCurrency(currency)) fields.currency = PREFERENCES_FIELD_CODES.invalidCurrency;
  const notifications = { ...current.notificationSettings } as NotificationSettings;
  if (input.notificationSettings !== undefined) {
    const given = input.notificationSettings;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      fields.notificationSettings = PREFERENCES_FIELD_CODES.invalidNotificationSettings;
    } else {
      for (const key of NOTIFICATION_SETTINGS) {
        const value = (given as Record<string, unknown>)[key];
        if (value === undefined) continue;
        if (typeof value !== 'boolean')
          fields[`notificationSettings.${key}`] = PREFERENCES_FIELD_CODES.invalidNotificationSettings;
        else notifications[key] = value;
      }
    }
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    value: { notificationSettings: notifications, language: language as Language, currency: currency as Currency },
  };
}

/** Currency from a locale's region, else from the time zone's continent: Europe EUR, America USD, Africa XOF. */
export function detectCurrency(locale: string | undefined, timeZone: string | undefined): Currency {
  const region = locale?.split(/[-_]/)[1]?.toUpperCase();
  const XOF_REGIONS = ['SN', 'CI', 'ML', 'BF', 'TG', 'BJ', 'NE', 'GW'];
  if (region) {
    if (XOF_REGIONS.includes(region)) return 'XOF';
    if (region === 'US') return 'USD';
    if (['FR', 'DE', 'IT', 'ES', 'BE', 'NL', 'PT', 'IE', 'AT', 'FI', 'LU', 'GR'].includes(region)) return 'EUR';
  }
  const continent = timeZone?.split('/')[0];
  if (continent === 'America') return 'USD';
  if (continent === 'Africa') return 'XOF';
  return 'EUR';
}
