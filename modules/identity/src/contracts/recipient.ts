import type { PersonalDataVault } from '@kora/kernel';
import { GetPreferences, GetProfile, type PreferencesDocument, type ProfileDocument } from './queries';

/** What runs a query (the query bus), so that this helper needs no framework. */
export interface QueryRunner {
  execute<Q, R>(query: Q): Promise<R>;
}

export interface MailRecipient {
  to: string;
  /** Empty when purged or never given. */
  firstName: string;
  language: 'en' | 'fr';
}

/**
 * Who a "your result is ready" e-mail goes to, or null when it should not go: e-mail notifications off
 * (`notificationSettings.emailNotifications`, on from sign-up), an account not active, an address no longer
 * readable (purged). The account's address and first name, opened from the vault, and its saved language.
 */
export async function readyMailRecipient(
  queries: QueryRunner,
  vault: PersonalDataVault,
  userId: string,
): Promise<MailRecipient | null> {
  const preferences = await queries.execute<GetPreferences, PreferencesDocument | null>(new GetPreferences(userId));
  if (!preferences?.notificationSettings?.emailNotifications) return null;
  const profile = await queries.execute<GetProfile, ProfileDocument | null>(new GetProfile(userId));
  if (!profile || profile.status !== 'active') return null;
  const to = await vault.open(userId, profile.email);
  if (!to) return null;
  const firstName = (await vault.open(userId, profile.firstName)) ?? '';
  return { to, firstName, language: preferences.language === 'en' ? 'en' : 'fr' };
}
