import type { Sealed } from '@kora/kernel';
import { describe, expect, it } from 'vitest';
import type { AccountEvent } from '../contracts/events';
import { type AccountCommand, accountDecider, type AccountState } from './account';

const s = (value: string) => `sealed:v1:${value}` as Sealed;
const day = 24 * 60 * 60 * 1000;
const t0 = new Date('2026-03-01T10:00:00.000Z');
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

/** Given past events, when a command is decided, then these events (or this error). */
function given(events: AccountEvent[]) {
  const state = events.reduce(accountDecider.evolve, accountDecider.initialState());
  return {
    state,
    when: (command: AccountCommand) => accountDecider.decide(command, state),
  };
}

const until = '2026-03-01T10:00:00.500Z';
const registered = accountDecider.decide(register(t0), accountDecider.initialState());
const deactivated = (at: Date): AccountEvent[] => [
  ...registered,
  ...accountDecider.decide(
    { type: 'DeactivateAccount', via: 'settings', now: at, tokensIssuedUntil: until },
    registered.reduce(accountDecider.evolve, accountDecider.initialState() as AccountState),
  ),
];

describe('the account decider', () => {
  it('registers once: the sign-up call is idempotent', () => {
    expect(registered.map((e) => e.type)).toEqual(['AccountRegistered']);
    expect(given(registered).when(register(t0))).toEqual([]);
  });

  it('records a newly verified e-mail at a later sign-up', () => {
    expect(given(registered).when(register(t0, true))).toEqual([{ type: 'EmailVerified', data: {} }]);
  });

  it('schedules deletion 30 days out, once, and ends the sessions each time', () => {
    const events = deactivated(t0);
    expect(events.slice(1)).toEqual([
      {
        type: 'AccountDeactivated',
        data: {
          deactivatedAt: t0.toISOString(),
          purgeAfter: new Date(t0.getTime() + 30 * day).toISOString(),
          via: 'settings',
        },
      },
      { type: 'SessionsEnded', data: { reason: 'deactivation', tokensIssuedUntil: until } },
    ]);
    const later = new Date(t0.getTime() + day).toISOString();
    expect(
      given(events).when({
        type: 'DeactivateAccount',
        via: 'delete-account',
        now: new Date(t0.getTime() + day),
        tokensIssuedUntil: later,
      }),
    ).toEqual([{ type: 'SessionsEnded', data: { reason: 'deactivation', tokensIssuedUntil: later } }]);
  });

  it('ends the sessions at logout and after a password reset, whatever the state of the account', () => {
    for (const reason of ['logout', 'password-reset'] as const) {
      const command: AccountCommand = { type: 'EndSessions', reason, tokensIssuedUntil: until };
      const ended = [{ type: 'SessionsEnded', data: { reason, tokensIssuedUntil: until } }];
      expect(given([]).when(command)).toEqual(ended);
      expect(given(registered).when(command)).toEqual(ended);
      expect(given(deactivated(t0)).when(command)).toEqual(ended);
      expect(given([...registered, ...ended] as AccountEvent[]).state.status).toBe('active');
    }
  });

  it('reactivates when the user signs in within 30 days, and not after', () => {
    const events = deactivated(t0);
    const justBefore = new Date(t0.getTime() + 30 * day - 1);
    expect(given(events).when(register(justBefore))).toEqual([
      { type: 'AccountReactivated', data: { reactivatedAt: justBefore.toISOString() } },
    ]);
    expect(() => given(events).when(register(new Date(t0.getTime() + 30 * day)))).toThrow(
      expect.objectContaining({ code: 'ACCOUNT.DELETED', status: 410 }),
    );
  });

  it('purges only once the window has closed', () => {
    const events = deactivated(t0);
    const purge = (days: number): AccountCommand => ({
      type: 'PurgeAccount',
      now: new Date(t0.getTime() + days * day),
      tokensIssuedUntil: until,
    });
    expect(() => given(events).when(purge(29))).toThrow(expect.objectContaining({ code: 'ACCOUNT.PURGE_NOT_DUE' }));
    const purged = given(events).when(purge(31));
    expect(purged.map((e) => e.type)).toEqual(['AccountPurged', 'SessionsEnded']);
    expect(given([...events, ...purged]).when(purge(32))).toEqual([]);
    expect(() => given(registered).when(purge(99))).toThrow(expect.objectContaining({ code: 'ACCOUNT.PURGE_NOT_DUE' }));
  });

  it('refuses changes to an unknown or deactivated account', () => {
    const change: AccountCommand = { type: 'ChangeLanguage', language: 'en' };
    expect(() => given([]).when(change)).toThrow(expect.objectContaining({ code: 'ACCOUNT.NOT_FOUND' }));
    expect(() => given(deactivated(t0)).when(change)).toThrow(expect.objectContaining({ code: 'ACCOUNT.DEACTIVATED' }));
  });

  it('changes the language only when it differs', () => {
    expect(given(registered).when({ type: 'ChangeLanguage', language: 'fr' })).toEqual([]);
    expect(given(registered).when({ type: 'ChangeLanguage', language: 'en' })).toEqual([
      { type: 'LanguageChanged', data: { language: 'en' } },
    ]);
  });
});
