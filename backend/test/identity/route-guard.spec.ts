import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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

  it('keeps the deliberate exceptions reachable', async () => {
    for (const route of PUBLIC_ROUTES) expect(routes.map((r) => `${r.method} ${r.path}`)).toContain(route);
    await request(test.url).get('/api/health').expect(200);
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
