import { IdentityProvider } from '@kora/identity';
import request from 'supertest';
import { BuiltInIdentityProvider } from '../../src/identity-provider/built-in-provider';
import type { TestApp } from './test-app';

export interface TestUser {
  userId: string;
  email: string;
  token: string;
  auth: { Authorization: string };
}

/**
 * A user of the built-in provider with a registered account, and an access token of the kind the token endpoint
 * issues (signed with the provider's keys). Sign-in through the pages is covered by oidc-flow.spec.ts.
 */
export async function registeredUser(
  test: TestApp,
  person: { email: string; firstName?: string; lastName?: string; language?: 'en' | 'fr'; emailVerified?: boolean },
): Promise<TestUser> {
  const provider = test.app.get(IdentityProvider) as BuiltInIdentityProvider;
  const user = await provider.users.create({
    email: person.email,
    password: 'a-good-password',
    givenName: person.firstName ?? 'Test',
    familyName: person.lastName ?? 'User',
    locale: person.language ?? 'fr',
    emailVerified: person.emailVerified ?? false,
  });
  const token = await provider.signAccessToken(user._id, 60, test.config.oidc.clientId, test.config.oidc.audience);
  const auth = { Authorization: `Bearer ${token}` };
  await request(test.url)
    .post('/api/auth/signup')
    .set(auth)
    .set('Accept-Language', person.language ?? 'fr-SN')
    .expect(200);
  return { userId: user._id, email: user.email, token, auth };
}

/** A clock the test moves by hand. */
export class TestClock {
  constructor(private current: Date) {}
  now = (): Date => new Date(this.current);
  set(date: Date): void {
    this.current = date;
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export const DAY = 24 * 60 * 60 * 1000;
