import { type AccountEvent, ACCOUNT_EVENT_TYPES, type ProfileDocument } from '@kora/identity/contracts';
import { defineProjection, streamId } from '@kora/kernel';

/**
 * One document per account: the profile screen, and the lookups by e-mail fingerprint and by purge date. Personal
 * fields stay sealed here; a purged account's document is deleted.
 */
export const profilesProjection = defineProjection<AccountEvent, ProfileDocument>({
  name: 'profiles',
  version: 1,
  collection: 'profiles',
  indexes: [{ fields: { emailFingerprint: 1 } }, { fields: { status: 1, purgeAfter: 1 } }],
  handles: ACCOUNT_EVENT_TYPES,
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'AccountRegistered': {
        const { data } = event;
        return {
          _id: data.userId,
          email: data.email,
          emailFingerprint: data.emailFingerprint,
          firstName: data.firstName,
          lastName: data.lastName,
          contactNumber: null,
          profileTypes: [],
          streetAddress: null,
          city: null,
          postalCode: null,
          country: null,
          isEmailVerified: data.emailVerified,
          isPhoneVerified: false,
          status: 'active',
          language: data.preferences.language,
          registeredAt: at,
          updatedAt: at,
          deactivatedAt: null,
          purgeAfter: null,
        };
      }
      case 'AccountPurged':
        return null;
    }
    if (!current) return null;
    switch (event.type) {
      case 'ProfileUpdated':
        return { ...current, ...event.data, updatedAt: at };
      case 'EmailVerified':
        return { ...current, isEmailVerified: true, updatedAt: at };
      case 'PreferencesUpdated':
      case 'LanguageChanged':
        return { ...current, language: event.data.language, updatedAt: at };
      case 'AccountDeactivated':
        return {
          ...current,
          status: 'deactivated',
          deactivatedAt: event.data.deactivatedAt,
          purgeAfter: event.data.purgeAfter,
          updatedAt: at,
        };
      case 'AccountReactivated':
        return { ...current, status: 'active', deactivatedAt: null, purgeAfter: null, updatedAt: at };
      case 'PasswordResetRequested':
      case 'SessionsEnded':
        return current;
    }
  },
});
