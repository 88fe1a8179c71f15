import { AfterResponse, IdentityProvider } from '@kora/identity';
import { EventStore } from '@kora/kernel';
import { accountStream } from '@kora/identity/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BuiltInIdentityProvider } from '../../src/identity-provider/built-in-provider';
import { registeredUser, TestClock, type TestUser } from '../support/accounts';
import { decodeQuotedPrintable, OidcTestClient } from '../support/oidc-client';
import { startTestApp, type TestApp } from '../support/test-app';

interface OutboxEntry {
  id: string;
  to: string;
  template: string;
  language: string;
}

describe('password reset by e-mail', () => {
  const clock = new TestClock(new Date('2026-06-01T12:00:00.000Z'));
  let test: TestApp;
  let ibrahim: TestUser;
  beforeAll(async () => {
    // The outbox is how these tests read the mails they follow links from.
    test = await startTestApp({ realAuth: true, clock, env: { DEV_OUTBOX: 'on' } });
    ibrahim = await registeredUser(test, { email: 'ibrahim@example.ne', firstName: 'Ibrahim' });
  });
  afterAll(() => test.close());

  /** The mails go out after the answer: wait for what the requests so far started. */
  const sent = async (): Promise<void> => {
    await test.app.get(AfterResponse).idle();
    await (test.app.get(IdentityProvider) as BuiltInIdentityProvider).idle();
  };
  const outbox = async (): Promise<OutboxEntry[]> => {
    await sent();
    return (await request(test.url).get('/dev/outbox').set('Accept', 'application/json').expect(200)).body;
  };

  /** The reset link of the newest reset mail to `to`. */
  async function resetLink(to: string): Promise<string> {
    const mail = (await outbox()).find((entry) => entry.to === to && entry.template === 'password-reset');
    if (!mail) throw new Error(`no reset mail for ${to}`);
    const raw = decodeQuotedPrintable((await request(test.url).get(`/dev/outbox/${mail.id}`)).text);
    return new URL(/http:\/\/127\.0\.0\.1:\d+\/oidc\/reset\/[A-Za-z0-9_-]+\?lang=\w+/.exec(raw)![0]).pathname;
  }

  it('answers the same whether or not the address has an account, and mails only the real one', async () => {
    const before = (await outbox()).length;
    const known = await request(test.url)
      .post('/api/auth/reset-password')
      .send({ email: 'IBRAHIM@example.ne' })
      .expect(200);
    const unknown = await request(test.url)
      .post('/api/auth/reset-password')
      .send({ email: 'ghost@example.ne' })
      .expect(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toEqual({
      success: true,
      message: 'Si un compte existe pour cette adresse, un lien de réinitialisation vient de lui être envoyé.',
    });
    const mails = (await outbox()).slice(0, (await outbox()).length - before);
    expect(mails.map((entry) => [entry.to, entry.template, entry.language])).toEqual([
      ['ibrahim@example.ne', 'password-reset', 'fr'],
    ]);
    const history = await test.app.get(EventStore).readStream(accountStream(ibrahim.userId));
    expect(history.map((event) => event.type)).toContain('PasswordResetRequested');
    await request(test.url).post('/api/auth/reset-password').send({ email: 'not-an-address' }).expect(400);
  });

  it("answers in the asker's language, never the account's, and the same for a known and an unknown address", async () => {
    const ask = (email: string, language?: string) =>
      request(test.url)
        .post('/api/auth/reset-password')
        .set('Accept-Language', 'en-GB,en;q=0.9,fr;q=0.5')
        .send(language ? { email, language } : { email });
    await registeredUser(test, { email: 'aicha@example.ne', language: 'fr' });
    const english = {
      success: true,
      message: 'If an account exists for this address, a password reset link is on its way.',
    };
    for (const email of ['aicha@example.ne', 'nobody@example.ne']) {
      const answer = await ask(email);
      expect([answer.status, answer.body, answer.headers['content-type']]).toEqual([
        200,
        english,
        'application/json; charset=utf-8',
      ]);
      expect((await ask(email, 'fr')).body.message).toBe(
        'Si un compte existe pour cette adresse, un lien de réinitialisation vient de lui être envoyé.',
      );
    }
    // The mail itself speaks the account's language.
    expect((await outbox())[0]).toMatchObject({ to: 'aicha@example.ne', template: 'password-reset', language: 'fr' });
  });

  it('lets the link set a new password once, and signs every device out, its access tokens included', async () => {
    const client = new OidcTestClient(test.url);
    const before = await client.signIn('ibrahim@example.ne', 'a-good-password');
    expect('refresh_token' in before).toBe(true);
    // An access token issued before the reset (the one a thief would hold) works until the reset...
    const stolen = { Authorization: `Bearer ${(before as { access_token: string }).access_token}` };
    await request(test.url).get('/api/user/profile').set(stolen).expect(200);

    const link = await resetLink('ibrahim@example.ne');
    const form = await request(test.url).get(link).expect(200);
    expect(form.text).toContain('Choisissez un nouveau mot de passe');
    const mismatch = await request(test.url)
      .post(link)
      .type('form')
      .send({ password: 'nouveau-mot-2026', confirm: 'autre-chose' })
      .expect(400);
    expect(mismatch.text).toContain('Les deux mots de passe ne sont pas identiques.');
    await request(test.url).post(link).type('form').send({ password: 'court', confirm: 'court' }).expect(400);
    const done = await request(test.url)
      .post(link)
      .type('form')
      .send({ password: 'nouveau-mot-2026', confirm: 'nouveau-mot-2026' })
      .expect(200);
    expect(done.text).toContain('Votre mot de passe a bien été changé.');
    // ... and is refused as soon as the page has answered, as every older token of the account.
    await request(test.url).get('/api/user/profile').set(stolen).expect(401);
    await request(test.url).get('/api/user/profile').set(ibrahim.auth).expect(401);
    const history = await test.app.get(EventStore).readStream(accountStream(ibrahim.userId));
    expect(history.filter((event) => event.type === 'SessionsEnded').map((event) => event.data)).toEqual([
      { reason: 'password-reset', tokensIssuedUntil: expect.any(String) },
    ]);

    const reused = await request(test.url)
      .post(link)
      .type('form')
      .send({ password: 'encore-un-autre', confirm: 'encore-un-autre' })
      .expect(410);
    expect(reused.text).toContain('Ce lien a expiré ou a déjà servi.');
    expect((await client.refresh((before as { refresh_token: string }).refresh_token)).status).toBe(400);
    expect(await new OidcTestClient(test.url).signIn('ibrahim@example.ne', 'a-good-password')).toMatchObject({
      status: 401,
    });
    // A sign-in with the new password right away gets a token that works.
    const after = await new OidcTestClient(test.url).signIn('ibrahim@example.ne', 'nouveau-mot-2026');
    expect('access_token' in after).toBe(true);
    await request(test.url)
      .get('/api/user/profile')
      .set({ Authorization: `Bearer ${(after as { access_token: string }).access_token}` })
      .expect(200);
  });

  it('expires the link after one hour', async () => {
    await request(test.url).post('/api/auth/reset-password').send({ email: 'ibrahim@example.ne' }).expect(200);
    const link = await resetLink('ibrahim@example.ne');
    clock.advance(60 * 60 * 1000 + 1);
    await request(test.url).get(link).expect(410);
    await request(test.url)
      .post(link)
      .type('form')
      .send({ password: 'trop-tard-2026', confirm: 'trop-tard-2026' })
      .expect(410);
  });

  it("offers the forgotten-password page from the provider's sign-in, in English when asked", async () => {
    const client = new OidcTestClient(test.url);
    const interaction = await client.authorize({ ui_locales: 'en' });
    const page = await client.agent.get(`${interaction}/forgot`).expect(200);
    expect(page.text).toContain('Reset your password');
    const sent = await client.agent
      .post(`${interaction}/forgot`)
      .type('form')
      .send({ email: 'someone@example.com' })
      .expect(200);
    expect(sent.text).toContain('If an account exists for someone@example.com');
  });
});
