import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, jwtPayload, OidcTestClient } from '../support/oidc-client';
import { startTestApp, type TestApp } from '../support/test-app';

describe('the built-in OpenID provider, driven over HTTP', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp({ realAuth: true });
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

  it('creates an account, signs in with PKCE, calls the API, refreshes, and logs out', async () => {
    const client = new OidcTestClient(test.url);
    const tokens = await client.signUp(awa);

    // A JWT access token for the API audience, an ID token, and a refresh token (offline_access).
    const access = jwtPayload(tokens.access_token);
    expect(access).toMatchObject({ iss: `${test.url}/oidc`, aud: `${test.url}/api`, client_id: 'kora-web' });
    expect(tokens.refresh_token).toBeTypeOf('string');
    expect(jwtPayload(tokens.id_token)).toMatchObject({
      email: 'awa@example.sn',
      given_name: 'Awa',
      family_name: 'Ndiaye',
    });

    const api = (token: string) => ({ Authorization: `Bearer ${token}` });
    const first = await request(test.url).post('/api/auth/signup').set(api(tokens.access_token)).expect(200);
    expect(first.body).toEqual({ ok: true, registered: true, reactivated: false });
    const again = await request(test.url).post('/api/auth/signup').set(api(tokens.access_token)).expect(200);
    expect(again.body).toEqual({ ok: true, registered: false, reactivated: false });

    const profile = await request(test.url).get('/api/user/profile').set(api(tokens.access_token)).expect(200);
    expect(profile.body.profile).toMatchObject({
      firstName: 'Awa',
      lastName: 'Ndiaye',
      email: 'awa@example.sn',
      isEmailVerified: false,
    });

    // The verification e-mail went to the outbox; its link confirms the address.
    const outbox = await request(test.url).get('/dev/outbox').set('Accept', 'application/json').expect(200);
    const verification = outbox.body.find((m: { template: string }) => m.template === 'email-verification');
    expect(verification).toMatchObject({ to: 'awa@example.sn', language: 'fr' });
    const raw = await request(test.url).get(`/dev/outbox/${verification.id}`).expect(200);
    const link = /http:\/\/127\.0\.0\.1:\d+\/oidc\/verify\/[A-Za-z0-9_-]+\?lang=fr/.exec(
      decodeQuotedPrintable(raw.text),
    )![0];
    await request(test.url).get(new URL(link).pathname).expect(200);

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

    // Signing in again with the password works, and the profile shows the confirmed e-mail.
    const back = await client.signIn('awa@example.sn', awa.password);
    expect('access_token' in back).toBe(true);
    const later = await request(test.url)
      .get('/api/user/profile')
      .set(api((back as { access_token: string }).access_token));
    expect(later.body.profile.isEmailVerified).toBe(false); // the account keeps what it was registered with...
    await request(test.url)
      .post('/api/auth/signup')
      .set(api((back as { access_token: string }).access_token))
      .expect(200);
    const confirmedProfile = await request(test.url)
      .get('/api/user/profile')
      .set(api((back as { access_token: string }).access_token));
    expect(confirmedProfile.body.profile.isEmailVerified).toBe(true); // ...until the next sign-up call records it
  });

  it('ends every session from the API logout', async () => {
    const client = new OidcTestClient(test.url);
    const tokens = await client.signUp({
      email: 'moussa@example.ci',
      password: 'un-mot-de-passe',
      firstName: 'Moussa',
      lastName: 'Koné',
    });
    await request(test.url).post('/api/auth/logout').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
    expect((await client.refresh(tokens.refresh_token!)).status).toBe(400);
  });

  it('refuses a wrong password and throttles repeated failures per account', async () => {
    const client = new OidcTestClient(test.url);
    await client.signUp({ email: 'fatou@example.sn', password: 'correct-horse', firstName: 'Fatou', lastName: 'Sow' });
    const stranger = new OidcTestClient(test.url);
    for (let i = 0; i < 5; i += 1) {
      const refused = await stranger.signIn('fatou@example.sn', `wrong-${i}`);
      expect(refused).toMatchObject({ status: 401 });
      expect((refused as { text: string }).text).toContain('E-mail ou mot de passe incorrect.');
    }
    const throttled = await stranger.signIn('fatou@example.sn', 'correct-horse');
    expect(throttled).toMatchObject({ status: 429 });
    expect((throttled as { text: string }).text).toMatch(/Trop de tentatives\. Réessayez dans \d+ minutes\./);
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

  it('refuses a second account on the same e-mail, in the chosen language', async () => {
    const client = new OidcTestClient(test.url);
    const interaction = await client.authorize({ ui_locales: 'en' });
    const taken = await client.agent
      .post(`${interaction}/signup`)
      .type('form')
      .send({ email: 'AWA@example.sn', password: 'another-password', firstName: 'A', lastName: 'N' });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('An account already uses this e-mail address.');
    const invalid = await client.agent
      .post(`${interaction}/signup`)
      .type('form')
      .send({ email: 'nope', password: 'short', firstName: '', lastName: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('Enter a valid e-mail address.');
    expect(invalid.text).toContain('The password needs 8 to 128 characters.');
  });
});
