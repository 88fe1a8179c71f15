import { connect } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { declaredRoutes } from '../../src/auth/token-before-body';
import { TokenVerifier } from '../../src/auth/token-verifier';
import { startTestApp, type TestApp } from '../support/test-app';

/** The /api routes reachable without a token, each chosen on purpose. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/auth/config',
  'POST /api/auth/reset-password',
  // E-mailed results: the signed, expiring token in the path is the credential.
  'GET /api/audio/download/:token',
  'GET /api/mixing/download/:token',
  // Payment providers' callbacks: the provider's verified signature (PayPal) or callback key (Orange Money) is the
  // credential; an unverified one answers 401 BILLING.INVALID_SIGNATURE and counts for nothing.
  'POST /api/payments/paypal/webhook',
  'POST /api/payments/orange-money/callback',
  // The tus server's capabilities (version, extensions, largest file), as the protocol has clients ask without a token.
  'OPTIONS /api/uploads',
]);

describe('authentication on every API route', () => {
  let test: TestApp;
  let routes: Array<{ method: string; path: string }>;
  beforeAll(async () => {
    test = await startTestApp({ realAuth: true });
    // HEAD routes are the GET routes' own twins.
    routes = test.routes.filter(
      (route) => route.path.startsWith('/api/') && !route.path.startsWith('/api/docs') && route.method !== 'HEAD',
    );
  });
  afterAll(() => test.close());

  it('finds the registered routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(routes).toContainEqual({ method: 'GET', path: '/api/user/profile' });
  });

  it('answers 401 Authentication required on every route not deliberately public, however it is probed', async () => {
    const guarded = routes.filter((route) => !PUBLIC_ROUTES.has(`${route.method} ${route.path}`));
    expect(guarded).toContainEqual({ method: 'GET', path: '/api/user/profile' });
    for (const route of guarded) {
      const path = route.path.replace(/:(\w+)/g, 'probe-$1');
      for (const authorization of [undefined, 'Bearer not-a-token', 'Basic dXNlcjpwYXNz']) {
        let call = request(test.url)[route.method.toLowerCase() as 'get'](path);
        if (authorization) call = call.set('Authorization', authorization);
        const response = await call.send({});
        expect({ route: `${route.method} ${route.path}`, status: response.status, body: response.body }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 401,
          body: { statusCode: 401, code: 'AUTH.REQUIRED', message: 'Authentication required' },
        });
      }
    }
  });

  it('takes public and guarded routes from the controllers themselves: every API route declared, the public ones these', () => {
    const declared = declaredRoutes(test.app).filter((route) => route.path.startsWith('/api/'));
    const declaredKeys = new Set(declared.map((route) => `${route.method} ${route.path}`));
    const registeredKeys = new Set(test.routes.map((route) => `${route.method} ${route.path}`));
    expect([...declaredKeys].filter((key) => !registeredKeys.has(key))).toEqual([]);
    expect(
      routes
        .map((route) => `${route.method} ${route.path}`)
        .filter((key) => !key.includes('/api/docs') && !declaredKeys.has(key)),
    ).toEqual([]);
    expect(new Set(declared.filter((route) => route.isPublic).map((route) => `${route.method} ${route.path}`))).toEqual(
      PUBLIC_ROUTES,
    );
  });

  it('keeps the deliberate exceptions reachable', async () => {
    for (const route of PUBLIC_ROUTES) expect(routes.map((r) => `${r.method} ${r.path}`)).toContain(route);
    // Reachable without a token: its report (ok, or degraded on a loaded machine whose checks missed their time).
    const health = await request(test.url).get('/api/health');
    expect({ status: health.status, report: health.body.status }).toEqual(
      health.status === 200 ? { status: 200, report: 'ok' } : { status: 503, report: 'degraded' },
    );
    await request(test.url).get('/api/auth/config').expect(200);
    for (const path of ['/api/payments/paypal/webhook', '/api/payments/orange-money/callback']) {
      const forged = await request(test.url).post(path).send({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED' });
      expect({ path, status: forged.status, code: forged.body.code }).toEqual({
        path,
        status: 401,
        code: 'BILLING.INVALID_SIGNATURE',
      });
    }
  });
});

/** What a raw HTTP/1.1 exchange got back, once the server answered or closed. */
function exchange(port: number, head: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n${body}`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // The answer's body is JSON on one chunked or sized block: done once it is whole.
      if (/\r\n\r\n[\s\S]*\}/.test(text)) {
        socket.destroy();
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
  });
}

describe('the token is checked before any body is read', () => {
  let test: TestApp;
  let port: number;
  beforeAll(async () => {
    test = await startTestApp();
    port = Number(new URL(test.url).port);
  });
  afterAll(() => test.close());

  it('answers an unreadable JSON body 401 without a token, and 400 only to a caller whose token holds', async () => {
    for (const authorization of [undefined, 'Bearer not-a-token']) {
      let call = request(test.url).post('/api/mixing/sessions/create').set('Content-Type', 'application/json');
      if (authorization) call = call.set('Authorization', authorization);
      const response = await call.send('{"name": "unfinished');
      expect({ authorization, status: response.status, code: response.body.code }).toEqual({
        authorization,
        status: 401,
        code: 'AUTH.REQUIRED',
      });
    }
    const signedIn = await request(test.url)
      .post('/api/mixing/sessions/create')
      .set('Authorization', `Bearer ${await test.token('user-before-body')}`)
      .set('Content-Type', 'application/json')
      .send('{"name": "unfinished');
    expect(signedIn.status).toBe(400);
  });

  it('answers a body that never comes 401 at once when the token is missing, without waiting for it', async () => {
    // 1,000 bytes announced, 4 sent, then nothing: only an answer given before the body could be this 401.
    const head = [
      'POST /api/mixing/sessions/create HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Content-Type: application/json',
      'Content-Length: 1000',
    ].join('\r\n');
    const answer = await exchange(port, head, '{"na');
    expect(answer.status).toBe(401);
    expect(answer.text).toContain('"code":"AUTH.REQUIRED"');
    expect(answer.text.toLowerCase()).toContain('connection: close');
  });

  it("answers a verifier that fails for another reason as the guard does: the app's 500, saying nothing of why", async () => {
    const verifier = test.app.get(TokenVerifier);
    const token = await test.token('user-before-body');
    const failing = jest.spyOn(verifier, 'verify').mockRejectedValue(new Error('issuer at 10.0.0.7 out of reach'));
    try {
      const answers = [
        // Checked before the body (a body announced), then by the guard (none).
        await request(test.url)
          .post('/api/mixing/sessions/create')
          .set('Authorization', `Bearer ${token}`)
          .send({ name: 'Dakar' }),
        await request(test.url).get('/api/user/profile').set('Authorization', `Bearer ${token}`),
      ].map((response) => ({ status: response.status, body: response.body as unknown }));
      const internal = {
        status: 500,
        body: {
          statusCode: 500,
          code: 'HTTP.INTERNAL_SERVER_ERROR',
          message: 'Something went wrong on our side. Please try again.',
        },
      };
      expect(answers).toEqual([internal, internal]);
    } finally {
      failing.mockRestore();
    }
  });

  it('lets a public route read its body without a token (a provider callback is verified on its bytes)', async () => {
    const response = await request(test.url)
      .post('/api/payments/paypal/webhook')
      .set('Content-Type', 'application/json')
      .send({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED' });
    expect({ status: response.status, code: response.body.code }).toEqual({
      status: 401,
      code: 'BILLING.INVALID_SIGNATURE',
    });
  });
});
