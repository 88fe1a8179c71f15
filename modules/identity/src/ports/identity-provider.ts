import type { Language } from '../contracts/events';

/** What the identity provider says about the signed-in person (OpenID standard claims). */
export interface ProviderProfile {
  email: string;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
  locale: string | null;
}

/** What the accounts module does once a user's password was reset through the provider (see `onPasswordReset`). */
export type PasswordResetHandler = (userId: string) => Promise<void>;

/**
 * The identity provider as the accounts module needs it. Adapters: the built-in OpenID provider (`/oidc`) and any
 * external OIDC issuer (Auth0, ...), which manages passwords and sessions itself.
 */
export abstract class IdentityProvider {
  /**
   * Set by the accounts module: a provider that resets passwords itself (the built-in one) calls it after the new
   * password is set and its own sessions are ended, and answers the reset only once it has resolved, so that the
   * access tokens issued before the reset are refused from then on (account recovery after a takeover).
   */
  onPasswordReset: PasswordResetHandler | null = null;

  /** `built-in` or `external`. */
  abstract readonly kind: 'built-in' | 'external';
  abstract readonly issuer: string;

  /** The person behind a verified access token. */
  abstract profile(userId: string, accessToken: string): Promise<ProviderProfile>;

  /**
   * Sends a password reset link to the address when it belongs to a user the provider manages. Never says whether
   * it does. External issuers run their own reset flow: nothing is sent from here.
   */
  abstract requestPasswordReset(email: string, language: Language): Promise<void>;

  /** Ends the user's sessions and revokes their refresh tokens (signing out everywhere, deactivation). */
  abstract endSessions(userId: string): Promise<void>;

  /** Ends one of the user's sessions (`sid`) and revokes its refresh tokens (a logout on one device). */
  abstract endSession(userId: string, sessionId: string): Promise<void>;

  /** Deletes the user's credentials for good (purge). */
  abstract deleteUser(userId: string): Promise<void>;
}
