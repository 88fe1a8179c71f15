import type { Sealed } from '@kora/kernel';
import type { CountryCode, Language, Preferences, ProfileType } from './events';

/**
 * The identity read side, answered by the projections package: the module asks through the query bus and never
 * reads another package's collections itself.
 */
export type AccountStatus = 'active' | 'deactivated';

/** The profile read model (`profiles`): personal fields stay sealed; the identity module opens them. */
export interface ProfileDocument {
  _id: string;
  email: Sealed;
  emailFingerprint: string;
  firstName: Sealed;
  lastName: Sealed;
  contactNumber: Sealed | null;
  profileTypes: ProfileType[];
  streetAddress: Sealed | null;
  city: Sealed | null;
  postalCode: Sealed | null;
  country: CountryCode | null;
  isEmailVerified: boolean;
  isPhoneVerified: boolean;
  status: AccountStatus;
  language: Language;
  registeredAt: string;
  updatedAt: string;
  deactivatedAt: string | null;
  purgeAfter: string | null;
}

/**
 * The ended-sessions read model (`ended_sessions`): per account, the latest cutoff of all its sessions (null while
 * only single sessions ended), and the single sessions ended within the last day and an hour, by id (their tokens
 * live a day at most). No personal data, so it outlives the purge (a token issued before it stays refused).
 */
export interface EndedSessionsDocument {
  _id: string;
  tokensIssuedUntil: string | null;
  /** Session id (`sid`) → when it ended. */
  sessions?: Record<string, string>;
}

export interface PreferencesDocument extends Preferences {
  _id: string;
  updatedAt: string;
}

export class GetProfile {
  constructor(readonly userId: string) {}
}

export class GetProfileByEmailFingerprint {
  constructor(readonly emailFingerprint: string) {}
}

export class GetPreferences {
  constructor(readonly userId: string) {}
}

/** Deactivated accounts whose reactivation window ended before `now`. */
export class GetAccountsDueForPurge {
  constructor(
    readonly now: string,
    readonly limit: number,
  ) {}
}
