import { describe, it } from '@jest/globals';
import type { AccountEvent, PreferencesDocument } from '@kora/identity/contracts';
import { type Sealed } from '@kora/kernel';
import { accountStream } from '@kora/identity/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { preferencesProjection } from './preferences.projection';

const givenEvents = ProjectionSpecification.for(preferencesProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-02T10:00:00.000Z';
const stream = accountStream('u1');
const sealed = (value: string) => `sealed:v1:${value}` as Sealed;

const preferences = {
  notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
  language: 'fr' as const,
  currency: 'XOF' as const,
};
const registered: AccountEvent = {
  type: 'AccountRegistered',
  data: {
    userId: 'u1',
    email: sealed('email'),
    emailFingerprint: 'fp',
    firstName: sealed('first'),
    lastName: sealed('last'),
    emailVerified: true,
    issuer: 'https://kora.test/oidc',
    preferences,
  },
};
const updated: AccountEvent = {
  type: 'PreferencesUpdated',
  data: {
    notificationSettings: { emailNotifications: false, marketingEmails: true, newFeatures: false },
    language: 'en',
    currency: 'EUR',
  },
};
const stored: PreferencesDocument = { _id: 'u1', ...preferences, updatedAt: T0 };

describe('the preferences read model', () => {
  it('starts from the preferences given at registration', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, registered)).thenDocument('u1', stored);
  });

  it('takes updated preferences whole', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, registered), log.record(stream, updated, { occurredAt: T1 })).thenDocument('u1', {
      _id: 'u1',
      ...updated.data,
      updatedAt: T1,
    });
  });

  it('changes only the language on a change of language', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(stream, { type: 'LanguageChanged', data: { language: 'en' } }, { occurredAt: T1 }),
    ).thenDocument('u1', { ...stored, language: 'en', updatedAt: T1 });
  });

  it('ignores the account events that carry no preference', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(stream, { type: 'EmailVerified', data: {} }, { occurredAt: T1 }),
      log.record(
        stream,
        { type: 'AccountDeactivated', data: { deactivatedAt: T1, purgeAfter: T1, via: 'settings' } },
        { occurredAt: T1 },
      ),
    ).thenDocument('u1', stored);
  });

  it('makes no document for preferences of an account it never saw registered', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, updated)).thenNoDocument('u1');
  });

  it('changes nothing when an event is applied twice', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    const first = log.record(stream, registered);
    const update = log.record(stream, updated, { occurredAt: T1 });
    const language = log.record(stream, { type: 'LanguageChanged', data: { language: 'fr' } }, { occurredAt: T0 });
    givenEvents(first, update, language, update).thenDocument('u1', {
      _id: 'u1',
      ...updated.data,
      language: 'fr',
      updatedAt: T0,
    });
  });

  it('deletes the preferences of a purged account', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(stream, updated),
      log.record(stream, { type: 'AccountPurged', data: { purgedAt: T1 } }),
    ).thenNoDocument('u1');
  });
});
