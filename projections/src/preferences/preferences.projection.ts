import type { AccountEvent, PreferencesDocument } from '@kora/identity/contracts';
import { defineProjection, streamId } from '@kora/kernel';

/** One document per account: notification settings, language and currency. */
export const preferencesProjection = defineProjection<AccountEvent, PreferencesDocument>({
  name: 'preferences',
  version: 1,
  collection: 'preferences',
  handles: ['AccountRegistered', 'PreferencesUpdated', 'LanguageChanged', 'AccountPurged'],
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'AccountRegistered':
        return { _id: event.data.userId, ...event.data.preferences, updatedAt: at };
      case 'PreferencesUpdated':
        return current && { ...current, ...event.data, updatedAt: at };
      case 'LanguageChanged':
        return current && { ...current, language: event.data.language, updatedAt: at };
      case 'AccountPurged':
        return null;
      default:
        return current;
    }
  },
});
