import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app';
import { configProblems, eventsOf } from './billing-support';
import { FakePayPal, paypalEnv } from './fake-providers';

const problems = configProblems;

const PAYPAL_LIVE = { PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' };
const ORANGE_MONEY_LIVE = {
  ORANGE_MONEY_CLIENT_ID: 'id',
  ORANGE_MONEY_CLIENT_SECRET: 'secret',
  ORANGE_MONEY_MERCHANT_CODE: '123456',
  ORANGE_MONEY_CALLBACK_API_KEY: 'a-callback-key-of-length',
};

describe('which payment providers a server offers', () => {
  it('refuses to start half live: the sandbox never runs beside a live provider', () => {
    expect(problems(PAYPAL_LIVE)).toEqual([
      'ORANGE_MONEY: PayPal is live and Orange Money is not configured; the built-in sandbox never runs beside a live ' +
        'provider: set ORANGE_MONEY_CLIENT_ID (and the rest of ORANGE_MONEY_*) or ORANGE_MONEY=off',
    ]);
    expect(problems(ORANGE_MONEY_LIVE)[0]).toMatch(/^PAYPAL: Orange Money is live and PayPal is not configured/);
    // The operator says which provider is offered.
    expect(problems({ ...PAYPAL_LIVE, ORANGE_MONEY: 'off' })).toEqual([]);
    expect(problems({ ...ORANGE_MONEY_LIVE, PAYPAL: 'off' })).toEqual([]);
    expect(problems({ ...PAYPAL_LIVE, ...ORANGE_MONEY_LIVE })).toEqual([]);
    expect(problems({})).toEqual([]); // all embedded: both are the sandbox
    expect(problems({ ...PAYPAL_LIVE, PAYPAL: 'off', ORANGE_MONEY: 'off' })).toContain(
      'PAYPAL: off, yet PAYPAL_CLIENT_ID is set',
    );
  });

  describe('PayPal live with ORANGE_MONEY=off', () => {
    let paypal: FakePayPal;
    let test: TestApp;
    let auth: { Authorization: string };
    beforeAll(async () => {
      paypal = await new FakePayPal().start();
      test = await startTestApp({
        env: {
          ...paypalEnv(paypal),
          ORANGE_MONEY: 'off',
          SANDBOX_KNOBS: 'on', // even open, there are no knobs: there is no sandbox
        },
      });
      auth = { Authorization: `Bearer ${await test.token('half-live')}` };
    }, 60_000);
    afterAll(async () => {
      await test?.close();
      await paypal?.stop();
    });

    it('offers PayPal only, and nothing of the sandbox answers', async () => {
      const config = await request(test.url).get('/api/payments/config').set(auth).expect(200);
      expect(config.body).toEqual({
        paypal: { mode: 'live', clientId: paypal.clientId },
        orangeMoney: { mode: 'off' },
      });
      const refused = await request(test.url)
        .post('/api/payments/createIntent')
        .set(auth)
        .send({ provider: 'ORANGE_MONEY', currency: 'XOF', planId: 'mastering-pro', paymentType: 'PACK' })
        .expect(400);
      expect(refused.body).toMatchObject({
        code: 'BILLING.PROVIDER_NOT_OFFERED',
        details: { provider: 'ORANGE_MONEY' },
      });
      await request(test.url).post('/sandbox/orange-money/payments/anything/pay').send({ outcome: 'pay' }).expect(404);
      await request(test.url).put('/sandbox/knobs').send({ decline: true }).expect(404);
      await request(test.url)
        .post('/api/payments/orange-money/callback')
        .set('x-api-key', 'a-callback-key-of-length')
        .send({ status: 'SUCCESS', reference: 'x', amount: { unit: 'XOF', value: 1 } })
        .expect(404);
      expect(await eventsOf(test, ['PaymentIntentCreated', 'PackPurchased'])).toEqual([]);
    });
  });

  describe('all embedded', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp({ env: { OPS_TOKEN: 'operators-token-0123456789' } });
    }, 60_000);
    afterAll(() => test?.close());

    it('keeps the sandbox’s knobs for the operators', async () => {
      const auth = { Authorization: `Bearer ${await test.token('embedded')}` };
      const config = await request(test.url).get('/api/payments/config').set(auth).expect(200);
      expect(config.body).toEqual({ paypal: { mode: 'sandbox' }, orangeMoney: { mode: 'sandbox' } });
      await request(test.url).get('/sandbox/knobs').expect(404);
      await request(test.url).put('/sandbox/knobs').set(auth).send({ decline: true }).expect(404);
      await request(test.url).put('/sandbox/knobs').set('Authorization', 'Bearer not-the-token-at-all').expect(404);
      const set = await request(test.url)
        .put('/sandbox/knobs')
        .set('Authorization', 'Bearer operators-token-0123456789')
        .send({ decline: true })
        .expect(200);
      expect(set.body.decline).toBe(true);
    });

    it('opens them with SANDBOX_KNOBS=on (a development machine, a test run)', async () => {
      const open = await startTestApp({ env: { SANDBOX_KNOBS: 'on' } });
      try {
        expect((await request(open.url).get('/sandbox/knobs').expect(200)).body).toMatchObject({ decline: false });
      } finally {
        await open.close();
      }
    }, 60_000);
  });
});
