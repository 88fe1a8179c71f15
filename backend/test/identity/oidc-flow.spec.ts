import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jwtPayload, OidcTestClient, outbox, waitForMail } from '../support/oidc-client';
import { startTestApp, type TestApp } from '../support/test-app';

describe('the built-in OpenID provider, driven over HTTP', () => {
  let test: TestApp;
  beforeAll(async () => {
    // The outbox is how these tests read the mails they follow links from.
    test = await startTestApp({ realAuth: true, env: { DEV_OUTBOX: 'on' } });
  });
  afterAll(() => test.close());

  const awa = { email: 'Awa@Example.sn', password: 'kora-mot-de-passe', firstName: 'Awa', lastName: 'Ndiaye' };

  it('announces itself to the client', async () => {
    const config = await request(test.url).get('/api/auth/config').expect(200);
    expect(config.body).toEqual({
      authority: `${test.url}/oidc`,
      clientId: 'kora-web',
      audience: `${test.url}/api`,
      scope: 'openid profile email offline_access',
      provider: 'built-in',
    });
    const discovery = await request(test.url).get('/oidc/.well-known/openid-configuration').expect(200);
    expect(discovery.body.issuer).toBe(`${test.url}/oidc`);
    expect(discovery.body.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.body.end_session_endpoint).toBe(`${test.url}/oidc/session/end`);
  });

  it('creates an account from the e-mailed link, signs in with PKCE, calls the API, refreshes, and logs out', async () => {
    const client = new OidcTestClient(test.url);
    // Until the link is followed there is no account: the password does not sign in.
    const seen = new Set((await outbox(test.url)).map((mail) => mail.id));
    const pending = await client.submitSignUp({ ...awa, email: 'early@example.sn' });
    expect(pending.status).toBe(200);
    await waitForMail(test.url, (mail) => mail.to === 'early@example.sn', seen);
    expect(await new OidcTestClient(test.url).signIn('early@example.sn', awa.password)).toMatchObject({ status: 401 });

    const tokens = await client.signUp(awa);

    // A JWT access token for the API audience, an ID token, and a refresh token (offline_access).
    const access = jwtPayload(tokens.access_token);
    expect(access).toMatchObject({ iss: `${test.url}/oidc`, aud: `${test.url}/api`, client_id: 'kora-web' });
    expect(typeof tokens.refresh_token).toBe('string');
    expect(jwtPayload(tokens.id_token)).toMatchObject({
      email: 'awa@example.sn',
      email_verified: true,
      given_name: 'Awa',
      family_name: 'Ndiaye',
    });

    const api = (token: string) => ({ Authorization: `Bearer ${token}` });
    const first = await request(test.url).post('/api/auth/signup').set(api(tokens.access_token)).expect(200);
    expect(first.body).toEqual({ ok: true, registered: true, reactivated: false });
    const again = await request(test.url).post('/api/auth/signup').set(api(tokens.access_token)).expect(200);
    expect(again.body).toEqual({ ok: true, registered: false, reactivated: false });

    // The link that created the account proved the address.
    const profile = await request(test.url).get('/api/user/profile').set(api(tokens.access_token)).expect(200);
    expect(profile.body.profile).toMatchObject({
      firstName: 'Awa',
      lastName: 'Ndiaye',
      email: 'awa@example.sn',
      isEmailVerified: true,
    });

    // Refresh: a new access token, and the refresh token rotates (the old one stops working).
    const refreshed = await client.refresh(tokens.refresh_token!);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    await request(test.url).get('/api/user/preferences').set(api(refreshed.body.access_token)).expect(200);
    expect((await client.refresh(tokens.refresh_token!)).status).toBe(400);

    // RP-initiated logout ends the provider session: the refresh token is revoked, and signing in asks again.
    const end = await client.agent.get('/oidc/session/end').query({
      id_token_hint: refreshed.body.id_token,
      post_logout_redirect_uri: `${test.url}/login`,
      client_id: 'kora-web',
    });
    expect(end.status).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(end.text)![1]!;
    const confirmed = await client.agent
      .post('/oidc/session/end/confirm')
      .type('form')
      .send({ xsrf, logout: 'yes' })
      .redirects(0);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.location).toBe(`${test.url}/login`);
    expect((await client.refresh(refreshed.body.refresh_token!)).status).toBe(400);

    // Signing in again with the password works.
    const back = await client.signIn('awa@example.sn', awa.password);
    expect('access_token' in back).toBe(true);
    await request(test.url)
      .get('/api/user/profile')
      .set(api((back as { access_token: string }).access_token))
      .expect(200);
  });

  it("logs out this device only: its refresh token and its access tokens end, the other device's go on", async () => {
    const person = { email: 'moussa@example.ci', password: 'un-mot-de-passe', firstName: 'Moussa', lastName: 'Koné' };
    const laptop = new OidcTestClient(test.url);
    const tokens = await laptop.signUp(person);
    const phone = new OidcTestClient(test.url);
    const phoneTokens = (await phone.signIn(person.email, person.password)) as typeof tokens;
    // Each device's tokens carry its own session id.
    const laptopSid = jwtPayload(tokens.access_token).sid;
    expect(typeof laptopSid).toBe('string');
    expect(jwtPayload(phoneTokens.access_token).sid).not.toBe(laptopSid);
    const auth = { Authorization: `Bearer ${tokens.access_token}` };
    const phoneAuth = { Authorization: `Bearer ${phoneTokens.access_token}` };
    await request(test.url).post('/api/auth/signup').set(auth).expect(200);
    await request(test.url).get('/api/user/profile').set(auth).expect(200); // the verified token is cached now

    const done = await request(test.url).post('/api/auth/logout').set(auth).expect(200);
    expect(done.body).toEqual({ ok: true, everywhere: false });
    expect((await laptop.refresh(tokens.refresh_token!)).status).toBe(400);
    const refused = { statusCode: 401, code: 'AUTH.REQUIRED', message: 'Authentication required' };
    expect((await request(test.url).get('/api/user/profile').set(auth).expect(401)).body).toEqual(refused);
    await request(test.url).post('/api/mixing/sessions/create').set(auth).send({ name: 'Nuit' }).expect(401);
    await request(test.url)
      .post('/api/audio/upload')
      .set(auth)
      .field('service', 'AI_MASTERING')
      .attach('file', Buffer.from('RIFF'), 'a.wav')
      .expect(401);

    // The phone is still signed in, and renews its session.
    await request(test.url).get('/api/user/profile').set(phoneAuth).expect(200);
    const renewed = await phone.refresh(phoneTokens.refresh_token!);
    expect(renewed.status).toBe(200);
    await request(test.url)
      .get('/api/user/profile')
      .set({ Authorization: `Bearer ${renewed.body.access_token}` })
      .expect(200);
  });

  it('signs out everywhere: every refresh token, and at once every access token issued so far', async () => {
    const person = { email: 'kofi@example.tg', password: 'un-mot-de-passe', firstName: 'Kofi', lastName: 'Mensah' };
    const client = new OidcTestClient(test.url);
    const tokens = await client.signUp(person);
    const phone = new OidcTestClient(test.url);
    const phoneTokens = (await phone.signIn(person.email, person.password)) as typeof tokens;
    const auth = { Authorization: `Bearer ${tokens.access_token}` };
    const phoneAuth = { Authorization: `Bearer ${phoneTokens.access_token}` };
    await request(test.url).post('/api/auth/signup').set(auth).expect(200);
    await request(test.url).get('/api/user/profile').set(phoneAuth).expect(200);

    const done = await request(test.url).post('/api/auth/logout-everywhere').set(auth).expect(200);
    expect(done.body).toEqual({ ok: true, everywhere: true });
    expect((await client.refresh(tokens.refresh_token!)).status).toBe(400);
    expect((await phone.refresh(phoneTokens.refresh_token!)).status).toBe(400);
    for (const headers of [auth, phoneAuth]) await request(test.url).get('/api/user/profile').set(headers).expect(401);

    // Signing in again right after gives a token that works.
    const back = await new OidcTestClient(test.url).signIn(person.email, person.password);
    await request(test.url)
      .get('/api/user/profile')
      .set({ Authorization: `Bearer ${(back as { access_token: string }).access_token}` })
      .expect(200);
  });

  it('slows repeated failures down without ever locking out the owner who has the right password', async () => {
    await new OidcTestClient(test.url).signUp({
      email: 'fatou@example.sn',
      password: 'correct-horse',
      firstName: 'Fatou',
      lastName: 'Sow',
    });
    const stranger = new OidcTestClient(test.url);
    for (let i = 0; i < 3; i += 1) {
      const refused = await stranger.signIn('fatou@example.sn', `wrong-${i}`);
      expect(refused).toMatchObject({ status: 401 });
      expect((refused as { text: string }).text).toContain('E-mail ou mot de passe incorrect.');
    }
    // Too soon after the third failure: 429 with the wait, and the password is not even looked at.
    const interaction = await stranger.authorize();
    const throttled = await stranger.agent
      .post(`${interaction}/login`)
      .type('form')
      .send({ email: 'fatou@example.sn', password: 'correct-horse' });
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('1');
    expect(throttled.text).toContain('Trop de tentatives. Réessayez dans 1 seconde.');

    // Once the delay has passed, the right password gets in, from the same address.
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect('access_token' in (await stranger.signIn('fatou@example.sn', 'correct-horse'))).toBe(true);
  });

  it('does not reveal whether an address has an account', async () => {
    const client = new OidcTestClient(test.url);
    const interaction = await client.authorize({ ui_locales: 'en' });
    const unknown = await client.agent
      .post(`${interaction}/login`)
      .type('form')
      .send({ email: 'nobody@example.com', password: 'whatever-1' });
    expect(unknown.status).toBe(401);
    expect(unknown.text).toContain('Wrong e-mail or password.');
  });

  it('answers a sign-up with a known address exactly like a new one, and warns the owner by e-mail', async () => {
    const normalise = (text: string, email: string, interaction: string) =>
      text
        .replaceAll(email, '<email>')
        .replaceAll(interaction, '<interaction>')
        .replace(/nonce-[^']+'/g, "nonce-<nonce>'")
        .replace(/nonce="[^"]+"/g, 'nonce="<nonce>"');
    const seen = new Set((await outbox(test.url)).map((mail) => mail.id));
    const form = { password: 'another-password', firstName: 'A', lastName: 'N' };
    const known = await new OidcTestClient(test.url).submitSignUp(
      { ...form, email: 'AWA@example.sn' },
      { ui_locales: 'en' },
    );
    const fresh = await new OidcTestClient(test.url).submitSignUp(
      { ...form, email: 'new.person@example.sn' },
      { ui_locales: 'en' },
    );
    expect(known.status).toBe(200);
    expect(fresh.status).toBe(200);
    expect(known.text).toContain('We have sent a message to awa@example.sn.');
    expect(normalise(known.text, 'awa@example.sn', known.interaction)).toBe(
      normalise(fresh.text, 'new.person@example.sn', fresh.interaction),
    );

    // The new address gets the link that creates its account; the owner of the known one a warning with a reset link.
    const created = await waitForMail(test.url, (mail) => mail.to === 'new.person@example.sn', seen);
    expect(created).toMatchObject({ template: 'email-verification', language: 'en' });
    const warning = await waitForMail(test.url, (mail) => mail.to === 'awa@example.sn', seen);
    expect(warning).toMatchObject({
      template: 'sign-up-attempt',
      language: 'fr',
      subject: 'Quelqu’un a essayé de créer un compte Kora avec votre adresse',
    });
    expect(warning.text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/oidc\/reset\/[A-Za-z0-9_-]+\?lang=fr/);
    // Nothing changed on the existing account: its own password still signs in, the other one does not.
    expect(await new OidcTestClient(test.url).signIn('awa@example.sn', 'another-password')).toMatchObject({
      status: 401,
    });
    expect('access_token' in (await new OidcTestClient(test.url).signIn('awa@example.sn', awa.password))).toBe(true);

    const client = new OidcTestClient(test.url);
    const interaction = await client.authorize({ ui_locales: 'en' });
    const invalid = await client.agent
      .post(`${interaction}/signup`)
      .type('form')
      .send({ email: 'nope', password: 'short', firstName: '', lastName: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('Enter a valid e-mail address.');
    expect(invalid.text).toContain('The password needs 8 to 128 characters.');
  });
});
