import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registeredUser, TestClock } from '../support/accounts';
import { OidcTestClient } from '../support/oidc-client';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Sign-in throttling by progressive delays: behind one reverse proxy (TRUST_PROXY=1) each request names its client
 * address in X-Forwarded-For; the provider's clock is the test's, so waits pass without sleeping.
 */
describe('sign-in throttling without lockouts', () => {
  const clock = new TestClock(new Date());
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp({ realAuth: true, clock, env: { TRUST_PROXY: '1' } });
    for (const email of ['fatou@example.sn', 'binta@example.ml', 'khady@example.sn', 'ami@example.sn']) {
      await registeredUser(test, { email });
    }
  });
  afterAll(() => test.close());

  /** One sign-in page, posted to from one client address. */
  async function from(address: string, client = new OidcTestClient(test.url)) {
    const interaction = await client.authorize();
    return async (email: string, password: string) => {
      const response = await client.agent
        .post(`${interaction}/login`)
        .set('X-Forwarded-For', address)
        .type('form')
        .send({ email, password })
        .redirects(0);
      return { status: response.status, retryAfter: response.headers['retry-after'], text: response.text };
    };
  }
  const signedIn = { status: 303, retryAfter: undefined };

  it('slows one address guessing one account, and lets the owner in from elsewhere at once and from there after the wait', async () => {
    const attacker = await from('203.0.113.7');
    for (let i = 0; i < 3; i += 1) {
      expect(await attacker('fatou@example.sn', `guess-${i}`)).toMatchObject({ status: 401 });
    }
    const early = await attacker('fatou@example.sn', 'guess-3');
    expect(early).toMatchObject({ status: 429, retryAfter: '1' });
    expect(early.text).toContain('Trop de tentatives. Réessayez dans 1 seconde.');
    clock.advance(1_000);
    expect(await attacker('fatou@example.sn', 'guess-4')).toMatchObject({ status: 401 });
    // Each failure doubles the wait; refused attempts do not count.
    expect(await attacker('fatou@example.sn', 'guess-5')).toMatchObject({ status: 429, retryAfter: '2' });
    expect(await attacker('fatou@example.sn', 'guess-6')).toMatchObject({ status: 429, retryAfter: '2' });

    // The owner, elsewhere: no wait at all.
    expect(await (await from('198.51.100.20'))('fatou@example.sn', 'a-good-password')).toMatchObject(signedIn);
    // The owner behind the attacker's address: in, once that address's delay is over.
    const neighbour = await from('203.0.113.7');
    expect(await neighbour('fatou@example.sn', 'a-good-password')).toMatchObject({ status: 429, retryAfter: '2' });
    clock.advance(2_000);
    expect(await neighbour('fatou@example.sn', 'a-good-password')).toMatchObject(signedIn);
  });

  it('slows a guesser spread over many addresses per account, and the owner gets in after that delay', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect(await (await from(`192.0.2.${i + 1}`))('binta@example.ml', `guess-${i}`)).toMatchObject({ status: 401 });
    }
    expect(await (await from('192.0.2.99'))('binta@example.ml', 'guess-10')).toMatchObject({
      status: 429,
      retryAfter: '1',
    });
    const owner = await from('198.51.100.30');
    expect(await owner('binta@example.ml', 'a-good-password')).toMatchObject({ status: 429, retryAfter: '1' });
    clock.advance(1_000);
    expect(await owner('binta@example.ml', 'a-good-password')).toMatchObject(signedIn);
  });

  it('lets a browser that signed in to the account before through while strangers are slowed down', async () => {
    const browser = new OidcTestClient(test.url);
    expect(await (await from('198.51.100.40', browser))('khady@example.sn', 'a-good-password')).toMatchObject(signedIn);
    for (let i = 0; i < 12; i += 1) {
      clock.advance(5 * 60_000); // the guesser spaces its tries past every per-address delay
      await (
        await from(`192.0.2.${100 + i}`)
      )('khady@example.sn', `guess-${i}`);
    }
    expect(await (await from('198.51.100.41'))('khady@example.sn', 'a-good-password')).toMatchObject({
      status: 429,
    });
    // Same browser, even from a new address: its own record is clean, so no wait.
    expect(await (await from('198.51.100.42', browser))('khady@example.sn', 'a-good-password')).toMatchObject(signedIn);
  });

  it('slows one address failing on many accounts (credential stuffing) by seconds, never locking out a NAT', async () => {
    const nat = await from('100.64.0.1');
    for (let i = 0; i < 100; i += 1) {
      expect(await nat(`person-${i}@example.sn`, 'password-1')).toMatchObject({ status: 401 });
    }
    // The next person behind that NAT waits three seconds, not a quarter of an hour.
    const honest = await from('100.64.0.1');
    expect(await honest('ami@example.sn', 'a-good-password')).toMatchObject({ status: 429, retryAfter: '3' });
    clock.advance(3_000);
    expect(await honest('ami@example.sn', 'a-good-password')).toMatchObject(signedIn);
  }, 60_000);
});
