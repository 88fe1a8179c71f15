import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IdentityProvider } from '@kora/identity';
import { loadConfig } from '../../src/config/config';
import type { BuiltInIdentityProvider } from '../../src/identity-provider/built-in-provider';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

const DISCOVERY = '/oidc/.well-known/openid-configuration';

/** Every URL-valued field of the discovery document. */
function announcedUrls(discovery: Record<string, unknown>): string[] {
  return Object.entries(discovery)
    .filter(
      ([key, value]) =>
        typeof value === 'string' && (key === 'issuer' || key.endsWith('_endpoint') || key === 'jwks_uri'),
    )
    .map(([, value]) => value as string);
}

/** A request with an absolute target (`GET http://host/path HTTP/1.1`), as a proxy client would send it. */
function absoluteTarget(base: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, path: target, headers: { Host: new URL(target).host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A browser-like cookie jar that also keeps every Set-Cookie line it was given. */
class Browser {
  private readonly jar = new Map<string, string>();
  readonly setCookies: string[] = [];
  constructor(private readonly url: string) {}

  private keep(response: request.Response): void {
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      this.setCookies.push(line);
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }

  private get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(path: string): Promise<request.Response> {
    const response = await request(this.url).get(path).set('Cookie', this.cookie).redirects(0);
    this.keep(response);
    return response;
  }

  async post(path: string, form: Record<string, string>): Promise<request.Response> {
    const response = await request(this.url).post(path).set('Cookie', this.cookie).type('form').send(form).redirects(0);
    this.keep(response);
    return response;
  }
}

function pathOf(location: string): string {
  const url = new URL(location, 'http://relative.invalid');
  return `${url.pathname}${url.search}`;
}

/** From an authorization request to the redirect back to the client, signing in with a new confirmed account. */
async function signInThrough(test: TestApp, browser: Browser, redirectUri: string, email: string): Promise<string> {
  const provider = test.app.get(IdentityProvider) as BuiltInIdentityProvider;
  const password = 'kora-mot-de-passe';
  await provider.users.create({
    email,
    password,
    givenName: 'Awa',
    familyName: 'Diop',
    locale: 'en',
    emailVerified: true,
  });
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: 'kora-web',
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'state-1',
  });
  const authorize = await browser.get(`/oidc/auth?${params.toString()}`);
  expect(authorize.status).toBe(303);
  const interaction = pathOf(authorize.headers.location!);
  expect((await browser.get(`${interaction}?lang=en`)).status).toBe(200);
  const submitted = await browser.post(`${interaction}/login`, { email, password });
  expect(submitted.status).toBe(303);
  let location = submitted.headers.location!;
  for (let hops = 0; hops < 5 && !location.startsWith(redirectUri); hops += 1) {
    const next = await browser.get(pathOf(location));
    expect(next.status).toBe(303);
    location = next.headers.location!;
  }
  expect(location.startsWith(`${redirectUri}?code=`)).toBe(true);
  return location;
}

describe('one public address: PUBLIC_URL', () => {
  const web = tempDir('kora-web-');
  let test: TestApp;
  beforeAll(async () => {
    writeFileSync(join(web.path, 'index.html'), '<!doctype html><div id="root"></div>');
    mkdirSync(join(web.path, 'assets'));
    test = await startTestApp({ realAuth: true, env: { WEB_DIST: web.path, TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await test.close();
    web.cleanup();
  });

  it('defaults to http://localhost:PORT, and marks cookies Secure only for an https address', () => {
    const plain = loadConfig({ PORT: '9000' });
    expect(plain.publicUrl).toBe('http://localhost:9000');
    expect(plain.oidc.issuer).toBe('http://localhost:9000/oidc');
    expect(plain.secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://kora.example/' }).secureCookies).toBe(true);
  });

  it('redirects a page asked for on another host to the same path on PUBLIC_URL', async () => {
    for (const host of ['localhost', `localhost:${new URL(test.url).port}`, 'kora-box:8080', '192.168.1.20']) {
      const page = await request(test.url)
        .get('/accountSettings?section=plans')
        .set('Host', host)
        .set('Accept', 'text/html')
        .redirects(0);
      expect(page.status).toBe(302);
      expect(page.headers.location).toBe(`${test.url}/accountSettings?section=plans`);
    }
    const head = await request(test.url).head('/').set('Host', 'kora-box').redirects(0);
    expect(head.status).toBe(302);
    expect(head.headers.location).toBe(`${test.url}/`);
    // A proxy's X-Forwarded-Host counts when the proxy is trusted.
    const forwarded = await request(test.url).get('/dashboard').set('X-Forwarded-Host', 'kora-box').redirects(0);
    expect(forwarded.status).toBe(302);
    // On PUBLIC_URL's own host the page is served.
    const served = await request(test.url).get('/accountSettings').set('Accept', 'text/html').expect(200);
    expect(served.text).toContain('<div id="root">');
  });

  it('keeps the API and the provider answering on any host, for scripts', async () => {
    const config = await request(test.url).get('/api/auth/config').set('Host', 'kora-box:8080').expect(200);
    expect(config.body.authority).toBe(`${test.url}/oidc`);
    await request(test.url).get('/api/health').set('Host', 'kora-box:8080').expect(200);
    await request(test.url).get('/api/user/profile').set('Host', 'kora-box:8080').expect(401);
    await request(test.url).post('/oidc/token').set('Host', 'kora-box:8080').type('form').send({}).expect(400);
    await request(test.url).get(DISCOVERY).set('Host', 'kora-box:8080').expect(200);
  });

  it('builds the discovery document from the issuer, never from Host, X-Forwarded-* or an absolute target', async () => {
    const honest = await request(test.url).get(DISCOVERY).expect(200);
    const urls = announcedUrls(honest.body);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(url.startsWith(`${test.url}/oidc`)).toBe(true);

    const forged = await request(test.url).get(DISCOVERY).set('Host', 'evil.example').expect(200);
    expect(forged.body).toEqual(honest.body);
    const proxied = await request(test.url)
      .get(DISCOVERY)
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-Proto', 'https')
      .expect(200);
    expect(proxied.body).toEqual(honest.body);
    const absolute = await absoluteTarget(test.url, `http://evil.example${DISCOVERY}`);
    expect(absolute.status).toBe(200);
    expect(JSON.parse(absolute.body)).toEqual(honest.body);
    // The redirect to the sign-in page stays on the issuer too.
    const authorize = await request(test.url)
      .get('/oidc/auth')
      .set('Host', 'evil.example')
      .query({ client_id: 'kora-web', response_type: 'code', redirect_uri: `${test.url}/callback`, scope: 'openid' })
      .query({ code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })
      .redirects(0);
    expect(authorize.status).toBe(303);
    expect(authorize.headers.location).not.toContain('evil.example');
  });

  it('sets no Secure flag on an http address', async () => {
    const browser = new Browser(test.url);
    await signInThrough(test, browser, `${test.url}/callback`, 'plain@example.sn');
    expect(browser.setCookies.length).toBeGreaterThan(0);
    for (const line of browser.setCookies) expect(line.toLowerCase()).not.toMatch(/;\s*secure/);
  });
});

describe('an https PUBLIC_URL behind a proxy', () => {
  const web = tempDir('kora-web-');
  let test: TestApp;
  beforeAll(async () => {
    writeFileSync(join(web.path, 'index.html'), '<!doctype html><div id="root"></div>');
    test = await startTestApp({
      realAuth: true,
      env: { WEB_DIST: web.path, PUBLIC_URL: 'https://kora.example', TRUST_PROXY: '1' },
    });
  });
  afterAll(async () => {
    await test.close();
    web.cleanup();
  });

  it('serves pages the proxy passes on for its host, whatever the scheme it reports, and redirects others', async () => {
    await request(test.url).get('/dashboard').set('Host', 'kora.example').set('X-Forwarded-Proto', 'https').expect(200);
    await request(test.url).get('/dashboard').set('Host', 'kora.example:443').expect(200);
    // A proxy that does not say https must not send the browser round in circles.
    await request(test.url).get('/dashboard').set('Host', 'kora.example').expect(200);
    const direct = await request(test.url).get('/dashboard?x=1').redirects(0);
    expect(direct.status).toBe(302);
    expect(direct.headers.location).toBe('https://kora.example/dashboard?x=1');
  });

  it('announces https endpoints and marks every cookie Secure, the provider’s and ours', async () => {
    const discovery = await request(test.url).get(DISCOVERY).expect(200);
    for (const url of announcedUrls(discovery.body)) expect(url.startsWith('https://kora.example/oidc')).toBe(true);

    const browser = new Browser(test.url);
    await signInThrough(test, browser, 'https://kora.example/callback', 'secure@example.sn');
    const names = browser.setCookies.map((line) => line.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['_interaction', '_interaction_resume', '_session', 'kora_lang']));
    for (const line of browser.setCookies) expect(line.toLowerCase()).toMatch(/;\s*secure/);
  });
});
