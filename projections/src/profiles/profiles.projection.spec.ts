import { describe, expect, it } from '@jest/globals';
import type { AccountEvent, ProfileDocument } from '@kora/identity/contracts';
import { type Sealed } from '@kora/kernel';
import { accountStream } from '@kora/identity/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { profilesProjection } from './profiles.projection';

const givenEvents = ProjectionSpecification.for(profilesProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-02T10:00:00.000Z';
const T2 = '2026-03-03T10:00:00.000Z';
const sealed = (value: string) => `sealed:v1:${value}` as Sealed;
const stream = accountStream('u1');

const registered: AccountEvent = {
  type: 'AccountRegistered',
  data: {
    userId: 'u1',
    email: sealed('email-ciphertext'),
    emailFingerprint: 'fp-awa',
    firstName: sealed('first-ciphertext'),
    lastName: sealed('last-ciphertext'),
    emailVerified: false,
    issuer: 'https://kora.test/oidc',
    preferences: {
      notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
      language: 'fr',
      currency: 'XOF',
    },
  },
};
const profileUpdated: AccountEvent = {
  type: 'ProfileUpdated',
  data: {
    firstName: sealed('first-2'),
    lastName: sealed('last-2'),
    contactNumber: sealed('phone-ciphertext'),
    profileTypes: ['PODCASTER'],
    streetAddress: sealed('street-ciphertext'),
    city: sealed('city-ciphertext'),
    postalCode: null,
    country: 'SN',
  },
};
const deactivated: AccountEvent = {
  type: 'AccountDeactivated',
  data: { deactivatedAt: T1, purgeAfter: '2026-04-01T10:00:00.000Z', via: 'settings' },
};
const purged: AccountEvent = { type: 'AccountPurged', data: { purgedAt: T2 } };

const profile: ProfileDocument = {
  _id: 'u1',
  email: sealed('email-ciphertext'),
  emailFingerprint: 'fp-awa',
  firstName: sealed('first-ciphertext'),
  lastName: sealed('last-ciphertext'),
  contactNumber: null,
  profileTypes: [],
  streetAddress: null,
  city: null,
  postalCode: null,
  country: null,
  isEmailVerified: false,
  isPhoneVerified: false,
  status: 'active',
  language: 'fr',
  registeredAt: T0,
  updatedAt: T0,
  deactivatedAt: null,
  purgeAfter: null,
};

describe('the profiles read model', () => {
  it('makes a profile from the registration, personal fields sealed as in the event', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, registered)).thenDocument('u1', profile);
  });

  it('takes the sealed profile fields of an update', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, registered), log.record(stream, profileUpdated, { occurredAt: T1 })).thenDocument(
      'u1',
      {
        ...profile,
        firstName: sealed('first-2'),
        lastName: sealed('last-2'),
        contactNumber: sealed('phone-ciphertext'),
        profileTypes: ['PODCASTER'],
        streetAddress: sealed('street-ciphertext'),
        city: sealed('city-ciphertext'),
        country: 'SN',
        updatedAt: T1,
      },
    );
  });

  it('records a verified e-mail', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(stream, { type: 'EmailVerified', data: {} }, { occurredAt: T1 }),
    ).thenDocument('u1', { ...profile, isEmailVerified: true, updatedAt: T1 });
  });

  it('follows a change of language', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(stream, { type: 'LanguageChanged', data: { language: 'en' } }, { occurredAt: T1 }),
    ).thenDocument('u1', { ...profile, language: 'en', updatedAt: T1 });
  });

  it('takes the language of updated preferences', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(
        stream,
        { type: 'PreferencesUpdated', data: { ...registered.data.preferences, language: 'en' } },
        { occurredAt: T1 },
      ),
    ).thenDocument('u1', { ...profile, language: 'en', updatedAt: T1 });
  });

  it('shows a deactivated account with its purge date', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, registered), log.record(stream, deactivated, { occurredAt: T1 })).thenDocument(
      'u1',
      { ...profile, status: 'deactivated', deactivatedAt: T1, purgeAfter: '2026-04-01T10:00:00.000Z', updatedAt: T1 },
    );
  });

  it('clears the purge date when the account is reactivated', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(stream, deactivated, { occurredAt: T1 }),
      log.record(stream, { type: 'AccountReactivated', data: { reactivatedAt: T2 } }, { occurredAt: T2 }),
    ).thenDocument('u1', { ...profile, updatedAt: T2 });
  });

  it('leaves the profile as it is when a password reset is asked', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, registered),
      log.record(stream, { type: 'PasswordResetRequested', data: {} }, { occurredAt: T1 }),
    ).thenDocument('u1', profile);
  });

  it('changes nothing when an event is applied twice', () => {
    const log = eventLog<AccountEvent>({ occurredAt: T0 });
    const first = log.record(stream, registered);
    const update = log.record(stream, profileUpdated, { occurredAt: T1 });
    const verified = log.record(stream, { type: 'EmailVerified', data: {} }, { occurredAt: T2 });
    givenEvents(first, update, verified, update, first).thenDocument(
      'u1',
      expect.objectContaining({ firstName: sealed('first-2'), isEmailVerified: true, updatedAt: T2 }),
    );
  });

  describe('once the account is purged (its key forgotten: the sealed values can no longer be opened)', () => {
    it('deletes the profile, sealed fields and fingerprint with it', () => {
      const log = eventLog<AccountEvent>({ occurredAt: T0 });
      givenEvents(
        log.record(stream, registered),
        log.record(stream, profileUpdated),
        log.record(stream, deactivated),
        log.record(stream, purged),
      ).thenNoDocument('u1');
    });

    it('a rebuild from the log never brings the shredded profile back', () => {
      const log = eventLog<AccountEvent>({ occurredAt: T0 });
      givenEvents(
        log.record(stream, registered),
        log.record(stream, profileUpdated),
        log.record(stream, deactivated),
        log.record(stream, purged),
      ).thenDocuments([]);
    });

    it('a new sign-up starts from a blank profile: none of the old sealed values come back', () => {
      const log = eventLog<AccountEvent>({ occurredAt: T0 });
      const again: AccountEvent = {
        type: 'AccountRegistered',
        data: { ...registered.data, email: sealed('new-key-email'), firstName: sealed('new-key-first') },
      };
      givenEvents(
        log.record(stream, registered),
        log.record(stream, profileUpdated),
        log.record(stream, deactivated),
        log.record(stream, purged),
        log.record(stream, again, { occurredAt: T2 }),
      ).thenDocument('u1', {
        ...profile,
        email: sealed('new-key-email'),
        firstName: sealed('new-key-first'),
        registeredAt: T2,
        updatedAt: T2,
      });
    });
  });
});
