import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app';

type CryptoKey = webcrypto.CryptoKey;

/**
 * A second, local OpenID issuer (discovery, JWKS and UserInfo, as Auth0 or any issuer publishes them): the API
 * configured with OIDC_ISSUER_URL must trust its tokens, and only tokens that are really its own and meant for us.
 */
describe('the API behind an external OpenID issuer', () => {
  let issuer: Server;
  let issuerUrl: string;
  let signingKey: CryptoKey;
  let publicJwk: JWK;
  let test: TestApp;
  const audience = 'https://api.kora.test';
  const people: Record<string, Record<string, unknown>> = {
    'auth0|123': {
      sub: 'auth0|123',
      email: 'kofi@example.tg',
      email_verified: true,
      given_name: 'Kofi',
      family_name: 'Mensah',
      locale: 'en',
    },
  };

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    issuer = createServer((req, res) => {
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/.well-known/openid-configuration') {
        return send(200, {
          issuer: `${issuerUrl}/`,
          jwks_uri: `${issuerUrl}/jwks`,
          userinfo_endpoint: `${issuerUrl}/userinfo`,
        });
      }
      if (req.url === '/jwks') return send(200, { keys: [publicJwk] });
      if (req.url === '/userinfo') {
        const bearer = (req.headers.authorization ?? '').replace('Bearer ', '');
        const sub = JSON.parse(Buffer.from(bearer.split('.')[1] ?? '', 'base64url').toString() || '{}').sub as string;
        return people[sub] ? send(200, people[sub]) : send(401, { error: 'invalid_token' });
      }
      send(404, {});
    });
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
    issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
    // Auth0's issuer ends with a slash: it must be kept as configured.
    test = await startTestApp({
      realAuth: true,
      env: { OIDC_ISSUER_URL: `${issuerUrl}/`, OIDC_AUDIENCE: audience, OIDC_CLIENT_ID: 'spa-client' },
    });
  });
  afterAll(async () => {
    await test.close();
    await new Promise((resolve) => issuer.close(resolve));
  });

  /** A token of this issuer for this audience; `claims` override any standard claim. */
  const token = async (
    claims: Record<string, unknown> = {},
    header: Record<string, unknown> = {},
    key: CryptoKey | Uint8Array = signingKey,
  ): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: `${issuerUrl}/`,
      aud: audience,
      sub: 'auth0|123',
      iat: now,
      exp: now + 600,
      scope: 'openid profile email',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...header })
      .sign(key);
  };

  it('announces the external issuer to the client and serves no built-in provider', async () => {
    expect((await request(test.url).get('/api/auth/config')).body).toEqual({
      authority: `${issuerUrl}/`,
      clientId: 'spa-client',
      audience,
      scope: 'openid profile email offline_access',
      provider: 'external',
    });
    await request(test.url).get('/oidc/.well-known/openid-configuration').expect(404);
  });

  it("registers the account from the issuer's UserInfo and serves its profile", async () => {
    const auth = { Authorization: `Bearer ${await token()}` };
    expect((await request(test.url).post('/api/auth/signup').set(auth).expect(200)).body).toMatchObject({
      registered: true,
    });
    const profile = await request(test.url).get('/api/user/profile').set(auth).expect(200);
    expect(profile.body.profile).toMatchObject({
      firstName: 'Kofi',
      lastName: 'Mensah',
      email: 'kofi@example.tg',
      isEmailVerified: true,
    });
    expect((await request(test.url).get('/api/user/preferences').set(auth)).body.preferences.language).toBe('en');
  });

  it('refuses tokens from another issuer, for another audience, expired, unsigned, or signed with a shared secret', async () => {
    const other = await generateKeyPair('RS256');
    const hmacKey = new TextEncoder().encode(JSON.stringify(publicJwk)); // the classic algorithm-confusion attempt
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({
        iss: `${issuerUrl}/`,
        aud: audience,
        sub: 'auth0|123',
        exp: Math.floor(Date.now() / 1000) + 600,
      }),
    ).toString('base64url')}.`;
    const bad = [
      await token({ iss: 'https://evil.example/' }),
      await token({ aud: 'https://another-api.example' }),
      await token({ exp: Math.floor(Date.now() / 1000) - 60 }),
      await token({}, {}, other.privateKey),
      await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .setIssuer(`${issuerUrl}/`)
        .setAudience(audience)
        .setSubject('auth0|123')
        .setExpirationTime('5m')
        .sign(hmacKey),
      unsigned,
    ];
    for (const jwt of bad) {
      const response = await request(test.url).get('/api/user/profile').set('Authorization', `Bearer ${jwt}`);
      expect(response.status).toBe(401);
    }
  });
});
