import type { CountryCode, Language, Preferences, ProfileType } from '@kora/contracts';
import type { DomainEvent, Sealed } from '@kora/kernel';

/**
 * The account's events, on `account-{userId}`. They are persisted contracts: never rename a type or change a shape
 * without a new schemaVersion and an upcaster. Personal data (names, e-mail, phone, address) is sealed with the
 * account's key (crypto-shredding); what stays readable after a purge is what the product needs to keep working.
 */

/** The spec's profile types, languages, currencies and countries, as the API speaks them (`@kora/contracts`). */
export {
  COUNTRIES,
  type CountryCode,
  CURRENCIES,
  type Currency,
  LANGUAGES,
  type Language,
  PROFILE_TYPES,
  type ProfileType,
} from '@kora/contracts';

/** The account's preferences, as the API sends them (`@kora/contracts`). */
export type { NotificationSettings, Preferences } from '@kora/contracts';

/** How many days a deactivated account can still be restored by signing in. */
export const REACTIVATION_WINDOW_DAYS = 30;

export type AccountRegistered = DomainEvent<
  'AccountRegistered',
  {
    userId: string;
    email: Sealed;
    /** Keyed hash of the lower-cased e-mail, to find an account by address without storing it in clear. */
    emailFingerprint: string;
    firstName: Sealed;
    lastName: Sealed;
    emailVerified: boolean;
    /** The identity provider that vouched for the account (its issuer URL). */
    issuer: string;
    preferences: Preferences;
  }
>;

export type ProfileUpdated = DomainEvent<
  'ProfileUpdated',
  {
    firstName: Sealed;
    lastName: Sealed;
    contactNumber: Sealed | null;
    profileTypes: ProfileType[];
    streetAddress: Sealed | null;
    city: Sealed | null;
    postalCode: Sealed | null;
    country: CountryCode | null;
  }
>;

export type EmailVerified = DomainEvent<'EmailVerified', Record<string, never>>;
export type PreferencesUpdated = DomainEvent<'PreferencesUpdated', Preferences>;
export type LanguageChanged = DomainEvent<'LanguageChanged', { language: Language }>;
export type PasswordResetRequested = DomainEvent<'PasswordResetRequested', Record<string, never>>;
export type AccountDeactivated = DomainEvent<
  'AccountDeactivated',
  { deactivatedAt: string; purgeAfter: string; via: 'settings' | 'delete-account' }
>;
export type AccountReactivated = DomainEvent<'AccountReactivated', { reactivatedAt: string }>;
export type AccountPurged = DomainEvent<'AccountPurged', { purgedAt: string }>;
/**
 * The account's sessions ended: every access token issued up to `tokensIssuedUntil` (the wall clock that stamps
 * tokens, to the second of their `iat`) is refused from then on, on every replica. Recorded when signing out
 * everywhere, after a password reset through the built-in provider (account recovery: whoever held a token loses
 * it), with a deactivation and with the purge. `password-reset` was added after the others: readers take any reason
 * alike.
 *
 * With `sessionId` (added later), one session only ended: a logout on one device. Every access token carrying that
 * session's id (`sid`) is refused, and the account's other sessions go on. A reader that does not know the field
 * ends them all, which errs on the safe side.
 */
export type SessionsEnded = DomainEvent<
  'SessionsEnded',
  { reason: SessionsEndedReason; tokensIssuedUntil: string; sessionId?: string }
>;
export type SessionsEndedReason = 'logout' | 'password-reset' | 'deactivation' | 'purge';

export type AccountEvent =
  | AccountRegistered
  | ProfileUpdated
  | EmailVerified
  | PreferencesUpdated
  | LanguageChanged
  | PasswordResetRequested
  | AccountDeactivated
  | AccountReactivated
  | AccountPurged
  | SessionsEnded;

export const ACCOUNT_EVENT_TYPES = [
  'AccountRegistered',
  'ProfileUpdated',
  'EmailVerified',
  'PreferencesUpdated',
  'LanguageChanged',
  'PasswordResetRequested',
  'AccountDeactivated',
  'AccountReactivated',
  'AccountPurged',
  'SessionsEnded',
] as const satisfies readonly AccountEvent['type'][];
