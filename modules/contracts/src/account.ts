import type { Currency } from './billing';

/** The interface languages: an account's language, the language of its e-mails and of the server's messages. */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What an account is sent by e-mail. */
export interface NotificationSettings {
  emailNotifications: boolean;
  marketingEmails: boolean;
  newFeatures: boolean;
}

/** An account's preferences, as the server keeps and sends them: always whole (set at registration). */
export interface Preferences {
  notificationSettings: NotificationSettings;
  language: Language;
  currency: Currency;
}

/** `GET /api/user/preferences`, and `PUT /api/user/preferences`' answer: the preferences (as saved). */
export interface PreferencesAnswer {
  success: true;
  preferences: Preferences;
}

/**
 * `PUT /api/user/preferences`: the preferences to change; a part left out (any setting, the language, the currency)
 * keeps its value. A refusal is a 400 with a code per field.
 */
export interface PreferencesUpdate {
  notificationSettings?: Partial<NotificationSettings>;
  language?: Language;
  currency?: Currency;
}

/** `PUT /api/user/preferences/language`: the interface language alone (the language switcher). */
export interface LanguageChange {
  language: Language;
}

/** `PUT /api/user/preferences/language`'s answer: the language saved. */
export interface LanguageAnswer {
  success: true;
  language: Language;
}

/** What a user says they do (the spec's profile types); the profile takes any of them. */
export const PROFILE_TYPES = [
  'MUSIC_PRODUCER',
  'SOUND_ENGINEER',
  'PROFESSIONAL_ARTIST',
  'PODCASTER',
  'SOCIAL_INFLUENCER',
  'OTHER',
] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

/** The spec's countries (the profile's `country`): two-letter code, three-letter code, English name. */
export const COUNTRIES = {
  SN: { alpha3: 'SEN', name: 'Senegal' },
  FR: { alpha3: 'FRA', name: 'France' },
  US: { alpha3: 'USA', name: 'United States' },
  GB: { alpha3: 'GBR', name: 'United Kingdom' },
  CI: { alpha3: 'CIV', name: "Côte d'Ivoire" },
  ML: { alpha3: 'MLI', name: 'Mali' },
  BF: { alpha3: 'BFA', name: 'Burkina Faso' },
  TG: { alpha3: 'TGO', name: 'Togo' },
  BJ: { alpha3: 'BEN', name: 'Benin' },
  NE: { alpha3: 'NER', name: 'Niger' },
  CM: { alpha3: 'CMR', name: 'Cameroon' },
  CA: { alpha3: 'CAN', name: 'Canada' },
  DE: { alpha3: 'DEU', name: 'Germany' },
  IT: { alpha3: 'ITA', name: 'Italy' },
  ES: { alpha3: 'ESP', name: 'Spain' },
} as const;
export type CountryCode = keyof typeof COUNTRIES;

/**
 * The signed-in user's profile as the server sends it, personal fields opened: a field never given is '' (not null),
 * `country` a two-letter code of the spec's countries or ''.
 */
export interface Profile {
  firstName: string;
  lastName: string;
  email: string;
  contactNumber: string;
  profileTypes: ProfileType[];
  streetAddress: string;
  city: string;
  postalCode: string;
  country: string;
  isEmailVerified: boolean;
  isPhoneVerified: boolean;
}

/** `GET /api/user/profile`, and `PUT /api/user/profile`'s answer: the profile (as saved). */
export interface ProfileAnswer {
  success: true;
  profile: Profile;
}

/**
 * `PUT /api/user/profile`: the whole profile (a field left out or null is cleared). Names are required; `email` is
 * read-only (absent, blank or the account's own address); the phone is E.164 once spaces, dots, dashes and brackets
 * are taken out; `country` a two-letter code of the spec's countries. A refusal is a 400 with a code per field.
 */
export interface ProfileUpdate {
  firstName: string;
  lastName: string;
  email?: string | null;
  contactNumber?: string | null;
  profileTypes?: ProfileType[] | null;
  streetAddress?: string | null;
  city?: string | null;
  postalCode?: string | null;
  country?: string | null;
}

/**
 * `POST /api/auth/reset-password` (public): where to send a password reset link; `language` the interface's, so the
 * answer is in it whatever the account's own (without it, Accept-Language's English or French, else French).
 */
export interface PasswordResetRequest {
  email: string;
  language?: Language;
}

/** Its answer, the same (status, body, language) whether or not the address has an account. */
export interface PasswordResetAnswer {
  success: true;
  message: string;
}

/** `POST /api/user/account/deactivate`: the typed confirmation, exactly DELETE. */
export interface DeactivateRequest {
  confirmationText: string;
}

/**
 * Its answer, and `POST /api/auth/delete-account`'s: the account is deactivated, its sessions ended, and it will be
 * purged after `purgeAfter` unless its owner signs in before.
 */
export interface DeactivateAnswer {
  success: true;
  purgeAfter: string | null;
}
