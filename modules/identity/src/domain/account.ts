import type { Decider, Sealed } from '@kora/kernel';
import {
  type AccountEvent,
  type CountryCode,
  type Language,
  type Preferences,
  type ProfileType,
  REACTIVATION_WINDOW_DAYS,
  type SessionsEnded,
} from '../contracts/events';
import { AccountDeactivatedError, AccountDeletedError, AccountNotFoundError, PurgeNotDueError } from './errors';

/** What decisions need to know about an account (folded from `account-{userId}`). */
export interface AccountState {
  status: 'none' | 'active' | 'deactivated' | 'purged';
  emailVerified: boolean;
  language: Language;
  purgeAfter: string | null;
}

export type AccountCommand =
  | {
      type: 'RegisterAccount';
      userId: string;
      email: Sealed;
      emailFingerprint: string;
      firstName: Sealed;
      lastName: Sealed;
      emailVerified: boolean;
      issuer: string;
      preferences: Preferences;
      now: Date;
    }
  | {
      type: 'UpdateProfile';
      firstName: Sealed;
      lastName: Sealed;
      contactNumber: Sealed | null;
      profileTypes: ProfileType[];
      streetAddress: Sealed | null;
      city: Sealed | null;
      postalCode: Sealed | null;
      country: CountryCode | null;
    }
  /** The provider now vouches for the address (it says so when asked after the account was registered). */
  | { type: 'ConfirmEmail' }
  | { type: 'UpdatePreferences'; preferences: Preferences }
  | { type: 'ChangeLanguage'; language: Language }
  | { type: 'RequestPasswordReset' }
  /**
   * `tokensIssuedUntil`: access tokens issued up to this instant stop working (see `SessionsEnded`). At logout, or
   * once a password was reset through the provider. With `sessionId`, that session's tokens only (a logout on one
   * device).
   */
  | { type: 'EndSessions'; reason: 'logout' | 'password-reset'; tokensIssuedUntil: string; sessionId?: string }
  | { type: 'DeactivateAccount'; via: 'settings' | 'delete-account'; now: Date; tokensIssuedUntil: string }
  /** Signing in again within 30 days of a deactivation: nothing to do on an account that is not deactivated. */
  | { type: 'ReactivateAccount'; now: Date }
  | { type: 'PurgeAccount'; now: Date; tokensIssuedUntil: string };

const DAY_MS = 24 * 60 * 60 * 1000;

export const initialAccountState = (): AccountState => ({
  status: 'none',
  emailVerified: false,
  language: 'fr',
  purgeAfter: null,
});

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountRegistered':
      return {
        status: 'active',
        emailVerified: event.data.emailVerified,
        language: event.data.preferences.language,
        purgeAfter: null,
      };
    case 'EmailVerified':
      return { ...state, emailVerified: true };
    case 'PreferencesUpdated':
      return { ...state, language: event.data.language };
    case 'LanguageChanged':
      return { ...state, language: event.data.language };
    case 'AccountDeactivated':
      return { ...state, status: 'deactivated', purgeAfter: event.data.purgeAfter };
    case 'AccountReactivated':
      return { ...state, status: 'active', purgeAfter: null };
    case 'AccountPurged':
      return { ...initialAccountState(), status: 'purged' };
    case 'ProfileUpdated':
    case 'PasswordResetRequested':
    case 'SessionsEnded':
      return state;
  }
}

/** True once the reactivation window of a deactivated account has closed. */
export function purgeDue(state: AccountState, now: Date): boolean {
  return state.status === 'deactivated' && state.purgeAfter !== null && now.getTime() >= Date.parse(state.purgeAfter);
}

function requireActive(state: AccountState): void {
  if (state.status === 'none' || state.status === 'purged') throw new AccountNotFoundError();
  if (state.status === 'deactivated') throw new AccountDeactivatedError();
}

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  switch (command.type) {
    case 'RegisterAccount': {
      if (state.status === 'none' || state.status === 'purged') {
        const { type: _type, now: _now, ...data } = command;
        return [{ type: 'AccountRegistered', data }];
      }
      // Sign-up reactivates first (ReactivateAccount); this covers a deactivation that lands between the two.
      if (state.status === 'deactivated') return reactivation(state, command.now);
      return command.emailVerified && !state.emailVerified ? [{ type: 'EmailVerified', data: {} }] : [];
    }
    case 'ReactivateAccount':
      return state.status === 'deactivated' ? reactivation(state, command.now) : [];
    case 'UpdateProfile': {
      requireActive(state);
      const { type: _type, ...data } = command;
      return [{ type: 'ProfileUpdated', data }];
    }
    case 'UpdatePreferences':
      requireActive(state);
      return [{ type: 'PreferencesUpdated', data: command.preferences }];
    case 'ChangeLanguage':
      requireActive(state);
      return command.language === state.language
        ? []
        : [{ type: 'LanguageChanged', data: { language: command.language } }];
    case 'ConfirmEmail':
      if (state.status === 'none' || state.status === 'purged') throw new AccountNotFoundError();
      return state.emailVerified ? [] : [{ type: 'EmailVerified', data: {} }];
    case 'RequestPasswordReset':
      requireActive(state);
      return [{ type: 'PasswordResetRequested', data: {} }];
    case 'EndSessions':
      // Whatever the account's state: a token must stop working at logout (or once its password was reset) even
      // before the sign-up call, and on a deactivated account too.
      return [sessionsEnded(command.reason, command.tokensIssuedUntil, command.sessionId)];
    case 'DeactivateAccount': {
      // Already scheduled: keep the first date, but still end the sessions of whoever asks again.
      if (state.status === 'deactivated') return [sessionsEnded('deactivation', command.tokensIssuedUntil)];
      requireActive(state);
      const purgeAfter = new Date(command.now.getTime() + REACTIVATION_WINDOW_DAYS * DAY_MS);
      return [
        {
          type: 'AccountDeactivated',
          data: { deactivatedAt: command.now.toISOString(), purgeAfter: purgeAfter.toISOString(), via: command.via },
        },
        sessionsEnded('deactivation', command.tokensIssuedUntil),
      ];
    }
    case 'PurgeAccount':
      if (state.status === 'purged') return [];
      if (!purgeDue(state, command.now)) throw new PurgeNotDueError();
      return [
        { type: 'AccountPurged', data: { purgedAt: command.now.toISOString() } },
        sessionsEnded('purge', command.tokensIssuedUntil),
      ];
  }
}

/** Signing in within the window restores a deactivated account; after it, the account is gone. */
function reactivation(state: AccountState, now: Date): AccountEvent[] {
  if (purgeDue(state, now)) throw new AccountDeletedError();
  return [{ type: 'AccountReactivated', data: { reactivatedAt: now.toISOString() } }];
}

function sessionsEnded(
  reason: SessionsEnded['data']['reason'],
  tokensIssuedUntil: string,
  sessionId?: string,
): SessionsEnded {
  return { type: 'SessionsEnded', data: { reason, tokensIssuedUntil, ...(sessionId ? { sessionId } : {}) } };
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};
