import { describe, expect, it } from '@jest/globals';
import type { Sealed } from '@kora/kernel';
import { DeciderSpecification } from '@kora/kernel/testing';
import type { AccountEvent, AccountRegistered, SessionsEnded } from '../contracts/events';
import { type AccountCommand, accountDecider } from './account';
import { AccountDeactivatedError, AccountDeletedError, AccountNotFoundError, PurgeNotDueError } from './errors';

const given = DeciderSpecification.for(accountDecider);

const s = (value: string) => `sealed:v1:${value}` as Sealed;
const day = 24 * 60 * 60 * 1000;
const t0 = new Date('2026-03-01T10:00:00.000Z');
const after = (days: number, ms = 0) => new Date(t0.getTime() + days * day + ms);
const preferences = {
  notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
  language: 'fr' as const,
  currency: 'XOF' as const,
};
const register = (now: Date, emailVerified = false): AccountCommand => ({
  type: 'RegisterAccount',
  userId: 'u1',
  email: s('e'),
  emailFingerprint: 'fp',
  firstName: s('f'),
  lastName: s('l'),
  emailVerified,
  issuer: 'https://kora.test/oidc',
  preferences,
  now,
});

const registered: AccountRegistered = {
  type: 'AccountRegistered',
  data: {
    userId: 'u1',
    email: s('e'),
    emailFingerprint: 'fp',
    firstName: s('f'),
    lastName: s('l'),
    emailVerified: false,
    issuer: 'https://kora.test/oidc',
    preferences,
  },
};
const deactivatedAt = (at: Date): AccountEvent => ({
  type: 'AccountDeactivated',
  data: {
    deactivatedAt: at.toISOString(),
    purgeAfter: new Date(at.getTime() + 30 * day).toISOString(),
    via: 'settings',
  },
});
/** Access tokens issued up to this instant stop working. */
const until = '2026-03-01T10:00:00.500Z';
const sessionsEnded = (reason: SessionsEnded['data']['reason'], tokensIssuedUntil = until): SessionsEnded => ({
  type: 'SessionsEnded',
  data: { reason, tokensIssuedUntil },
});
const active: AccountEvent[] = [registered];
const deactivated: AccountEvent[] = [registered, deactivatedAt(t0), sessionsEnded('deactivation')];
const purged: AccountEvent[] = [
  ...deactivated,
  { type: 'AccountPurged', data: { purgedAt: after(31).toISOString() } },
  sessionsEnded('purge'),
];

describe('registering an account', () => {
  it('records the account from the first sign-in', () => {
    given([]).when(register(t0)).then([registered]);
  });

  it('is idempotent: a later sign-in records nothing', () => {
    given(active).when(register(t0)).thenNothingHappened();
  });

  it('records a newly verified e-mail at a later sign-in', () => {
    given(active)
      .when(register(t0, true))
      .then([{ type: 'EmailVerified', data: {} }]);
  });

  it('records a verified e-mail once', () => {
    given([...active, { type: 'EmailVerified', data: {} }])
      .when(register(t0, true))
      .thenNothingHappened();
  });

  it('records an address the provider confirmed after the sign-up, once', () => {
    given(active)
      .when({ type: 'ConfirmEmail' })
      .then([{ type: 'EmailVerified', data: {} }]);
    given([...active, { type: 'EmailVerified', data: {} }])
      .when({ type: 'ConfirmEmail' })
      .thenNothingHappened();
    given([]).when({ type: 'ConfirmEmail' }).thenThrows(AccountNotFoundError);
  });

  it('reactivates when the user signs in within 30 days', () => {
    const justBefore = after(30, -1);
    given(deactivated)
      .when(register(justBefore))
      .then([{ type: 'AccountReactivated', data: { reactivatedAt: justBefore.toISOString() } }]);
  });

  it('refuses a sign-in once the 30 days are over: the account is gone', () => {
    const error = given(deactivated)
      .when(register(after(30)))
      .thenThrows(AccountDeletedError);
    expect(error.kind).toBe('gone');
  });

  it('reactivates on its own command within 30 days, and refuses it once they are over', () => {
    const justBefore = after(30, -1);
    given(deactivated)
      .when({ type: 'ReactivateAccount', now: justBefore })
      .then([{ type: 'AccountReactivated', data: { reactivatedAt: justBefore.toISOString() } }]);
    given(deactivated)
      .when({ type: 'ReactivateAccount', now: after(30) })
      .thenThrows(AccountDeletedError);
  });

  it('has nothing to reactivate on an account that is not deactivated', () => {
    given([]).when({ type: 'ReactivateAccount', now: t0 }).thenNothingHappened();
    given(active).when({ type: 'ReactivateAccount', now: t0 }).thenNothingHappened();
    given(purged)
      .when({ type: 'ReactivateAccount', now: after(40) })
      .thenNothingHappened();
  });

  it('registers anew after a purge', () => {
    given(purged)
      .when(register(after(40)))
      .then([registered]);
  });
});

describe('updating the profile', () => {
  const update: AccountCommand = {
    type: 'UpdateProfile',
    firstName: s('f2'),
    lastName: s('l2'),
    contactNumber: s('p'),
    profileTypes: ['PODCASTER'],
    streetAddress: null,
    city: s('c'),
    postalCode: null,
    country: 'SN',
  };

  it('records the sealed fields as given', () => {
    const { type: _type, ...data } = update;
    given(active)
      .when(update)
      .then([{ type: 'ProfileUpdated', data }]);
  });

  it('refuses an unknown account', () => {
    given([]).when(update).thenThrows(AccountNotFoundError);
  });

  it('refuses a deactivated account', () => {
    given(deactivated).when(update).thenThrows(AccountDeactivatedError);
  });
});

describe('updating preferences', () => {
  const english = { ...preferences, language: 'en' as const };

  it('records the new preferences', () => {
    given(active)
      .when({ type: 'UpdatePreferences', preferences: english })
      .then([{ type: 'PreferencesUpdated', data: english }]);
  });

  it('takes the language from the preferences', () => {
    given([...active, { type: 'PreferencesUpdated', data: english }]).thenState({ language: 'en' });
  });

  it('refuses a purged account', () => {
    given(purged).when({ type: 'UpdatePreferences', preferences: english }).thenThrows('ACCOUNT.NOT_FOUND');
  });
});

describe('changing the language', () => {
  it('records a different language', () => {
    given(active)
      .when({ type: 'ChangeLanguage', language: 'en' })
      .then([{ type: 'LanguageChanged', data: { language: 'en' } }]);
  });

  it('records nothing when the language is the same', () => {
    given(active).when({ type: 'ChangeLanguage', language: 'fr' }).thenNothingHappened();
  });

  it('refuses an unknown account', () => {
    given([]).when({ type: 'ChangeLanguage', language: 'en' }).thenThrows('ACCOUNT.NOT_FOUND');
  });

  it('refuses a deactivated account', () => {
    given(deactivated).when({ type: 'ChangeLanguage', language: 'en' }).thenThrows('ACCOUNT.DEACTIVATED');
  });
});

describe('requesting a password reset', () => {
  it('records the request', () => {
    given(active)
      .when({ type: 'RequestPasswordReset' })
      .then([{ type: 'PasswordResetRequested', data: {} }]);
  });

  it('refuses a deactivated account', () => {
    given(deactivated).when({ type: 'RequestPasswordReset' }).thenThrows(AccountDeactivatedError);
  });
});

describe.each(['logout', 'password-reset'] as const)('ending the sessions (%s)', (reason) => {
  const endSessions: AccountCommand = { type: 'EndSessions', reason, tokensIssuedUntil: until };

  it('ends the sessions of an active account', () => {
    given(active)
      .when(endSessions)
      .then([sessionsEnded(reason)]);
  });

  it('ends the sessions even before the sign-up call has registered the account', () => {
    given([])
      .when(endSessions)
      .then([sessionsEnded(reason)]);
  });

  it('ends the sessions of a deactivated account', () => {
    given(deactivated)
      .when(endSessions)
      .then([sessionsEnded(reason)]);
  });

  it('leaves the account active', () => {
    given([...active, sessionsEnded(reason)]).thenState({ status: 'active' });
  });
});

describe('deactivating an account', () => {
  it('schedules deletion 30 days out and ends the sessions', () => {
    given(active)
      .when({ type: 'DeactivateAccount', via: 'settings', now: t0, tokensIssuedUntil: until })
      .then([
        {
          type: 'AccountDeactivated',
          data: { deactivatedAt: t0.toISOString(), purgeAfter: after(30).toISOString(), via: 'settings' },
        },
        sessionsEnded('deactivation'),
      ]);
  });

  it('keeps the first date when asked again, but still ends the sessions of whoever asks', () => {
    const later = after(1).toISOString();
    given(deactivated)
      .when({ type: 'DeactivateAccount', via: 'delete-account', now: after(1), tokensIssuedUntil: later })
      .then([sessionsEnded('deactivation', later)]);
  });

  it('refuses an unknown account', () => {
    given([])
      .when({ type: 'DeactivateAccount', via: 'settings', now: t0, tokensIssuedUntil: until })
      .thenThrows(AccountNotFoundError);
  });
});

describe('purging an account', () => {
  const purge = (days: number): AccountCommand => ({
    type: 'PurgeAccount',
    now: after(days),
    tokensIssuedUntil: until,
  });

  it('refuses while the account can still be restored', () => {
    given(deactivated).when(purge(29)).thenThrows(PurgeNotDueError);
  });

  it('purges once the window has closed and ends the sessions', () => {
    given(deactivated)
      .when(purge(31))
      .then([{ type: 'AccountPurged', data: { purgedAt: after(31).toISOString() } }, sessionsEnded('purge')]);
  });

  it('purges once', () => {
    given(purged).when(purge(32)).thenNothingHappened();
  });

  it('never purges an active account', () => {
    given(active).when(purge(99)).thenThrows('ACCOUNT.PURGE_NOT_DUE');
  });
});
