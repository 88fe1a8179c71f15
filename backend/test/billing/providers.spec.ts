import {
  OrangeMoneyRestGateway,
  type OrangeMoneyRestOptions,
  PayPalRestGateway,
  ProviderRefusal,
  ProviderUnavailable,
} from '@kora/billing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app';
import { configProblems, eventsOf, orangeMoneyTrackIntent, seedTrack } from './billing-support';
import { FakeOrangeMoney, FakePayPal, orangeMoneyEnv, paypalEnv } from './fake-providers';

// How long the adapters wait for the fake (a loaded CI machine can take several hundred ms to answer loopback).
const PATIENCE_MS = 2_000;

describe('the PayPal REST adapter against a fake PayPal on loopback', () => {
  let fake: FakePayPal;
  let paypal: PayPalRestGateway;
  beforeAll(async () => {
    fake = await new FakePayPal().start();
    paypal = new PayPalRestGateway({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      apiBase: fake.url,
      webhookId: fake.webhookId,
      timeoutMs: PATIENCE_MS,
    });
  });
  afterAll(() => fake.stop());

  const create = (requestId: string) =>
    paypal.createOrder({
      requestId,
      customId: requestId,
      description: 'Kora Starter (AI_MASTERING)',
      amount: { currency_code: 'USD', value: '19.99' },
      returnUrl: 'http://kora.test/payment/success',
      cancelUrl: 'http://kora.test/payment/cancel',
    });

  it('creates an order (intent CAPTURE, custom_id and invoice_id, PayPal-Request-Id) with one cached token', async () => {
    const order = await create('pay-1');
    expect(order.status).toBe('PAYER_ACTION_REQUIRED');
    expect(order.links.find((link) => link.rel === 'payer-action')).toBeDefined();
    const again = await create('pay-1');
    expect(again.id).toBe(order.id); // the same request id: the same order
    const sent = fake.requestsTo('/v2/checkout/orders');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers['paypal-request-id']).toBe('pay-1');
    const body = JSON.parse(sent[0]!.body);
    expect(body).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [{ custom_id: 'pay-1', invoice_id: 'pay-1', amount: { currency_code: 'USD', value: '19.99' } }],
    });
    expect(fake.requestsTo('/v1/oauth2/token')).toHaveLength(1);
    expect((await paypal.getOrder(order.id)).id).toBe(order.id);
    expect(fake.requestsTo('/v1/oauth2/token')).toHaveLength(1);
  });

  it('maps PayPal’s answers: not approved, captured, already captured, declined, 5xx, timeouts', async () => {
    const order = await create('pay-2');
    const notApproved = await paypal.captureOrder(order.id, 'pay-2').catch((error: unknown) => error);
    expect(notApproved).toBeInstanceOf(ProviderRefusal);
    expect(notApproved).toMatchObject({ issue: 'ORDER_NOT_APPROVED', final: false });
    fake.approve(order.id);
    const captured = await paypal.captureOrder(order.id, 'pay-2-retry');
    expect(captured.status).toBe('COMPLETED');
    expect(captured.purchase_units[0]!.payments!.captures![0]).toMatchObject({
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '19.99' },
    });
    // The same capture request again answers the first result (PayPal-Request-Id); a new one is refused.
    expect((await paypal.captureOrder(order.id, 'pay-2-retry')).status).toBe('COMPLETED');
    // Another capture of a completed order answers the order as PayPal has it, and captures nothing more.
    const twice = await paypal.captureOrder(order.id, 'another');
    expect(twice.purchase_units[0]!.payments!.captures).toHaveLength(1);
    expect(fake.requestsTo(`/v2/checkout/orders/${order.id}/capture`)).toHaveLength(1);

    const declined = await create('pay-3');
    fake.approve(declined.id);
    fake.declineCapture = true;
    const refusal = await paypal.captureOrder(declined.id, 'pay-3').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProviderRefusal);
    expect(refusal).toMatchObject({ issue: 'INSTRUMENT_DECLINED', final: true });

    fake.failWith = 503;
    try {
      expect(await paypal.getOrder(declined.id).catch((error: unknown) => error)).toBeInstanceOf(ProviderUnavailable);
    } finally {
      fake.failWith = null;
    }
    fake.delayMs = 2 * PATIENCE_MS;
    try {
      const slow = await paypal.getOrder(declined.id).catch((error: unknown) => error);
      expect(slow).toBeInstanceOf(ProviderUnavailable);
      expect((slow as Error).message).toContain(`no answer within ${PATIENCE_MS} ms`);
    } finally {
      fake.delayMs = 0;
    }
    const missing = await paypal.getOrder('NOSUCHORDER').catch((error: unknown) => error);
    expect(missing).toMatchObject({ issue: 'INVALID_RESOURCE_ID' });
  });

  it('renews the token when it expires or PayPal answers 401', async () => {
    const short = new FakePayPal();
    await short.start();
    try {
      short.tokenLifetimeSeconds = 1;
      const gateway = new PayPalRestGateway({
        clientId: short.clientId,
        clientSecret: short.clientSecret,
        apiBase: short.url,
        timeoutMs: 1_000,
      });
      const order = await gateway.createOrder({
        requestId: 'r1',
        customId: 'r1',
        description: 'x',
        amount: { currency_code: 'EUR', value: '4.59' },
        returnUrl: 'http://kora.test/a',
        cancelUrl: 'http://kora.test/b',
      });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await gateway.getOrder(order.id);
      expect(short.requestsTo('/v1/oauth2/token')).toHaveLength(2);
      const wrong = new PayPalRestGateway({ clientId: 'x', clientSecret: 'y', apiBase: short.url, timeoutMs: 1_000 });
      expect(await wrong.getOrder(order.id).catch((error: unknown) => error)).toBeInstanceOf(ProviderUnavailable);
    } finally {
      await short.stop();
    }
  });

  it('verifies webhooks through /v1/notifications/verify-webhook-signature, on the bytes PayPal sent', async () => {
    const delivery = fake.webhook('PAYMENT.CAPTURE.COMPLETED', { id: 'CAP1', custom_id: 'pay-9' });
    // The bytes do not survive a parse and a re-serialisation: only they verify.
    expect(JSON.stringify(delivery.body)).not.toBe(delivery.raw);
    expect(await paypal.verifyWebhook(delivery.headers, JSON.stringify(delivery.body))).toBeNull();
    const event = await paypal.verifyWebhook(delivery.headers, delivery.raw);
    expect(event).toMatchObject({ event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'CAP1' } });
    const verification = JSON.parse(fake.requestsTo('/v1/notifications/verify-webhook-signature').at(-1)!.body);
    expect(verification).toMatchObject({
      webhook_id: fake.webhookId,
      auth_algo: 'SHA256withRSA',
      transmission_id: delivery.headers['paypal-transmission-id'],
      cert_url: delivery.headers['paypal-cert-url'],
      webhook_event: delivery.body,
    });
    // Tampered with: PayPal says FAILURE.
    const forged = delivery.raw.replace('"pay-9"', '"someone-else"');
    expect(await paypal.verifyWebhook(delivery.headers, forged)).toBeNull();
    // Without the transmission headers PayPal is not even asked.
    const before = fake.requests.length;
    expect(await paypal.verifyWebhook({}, delivery.raw)).toBeNull();
    expect(fake.requests.length).toBe(before);
  });
});

describe('the Orange Money REST adapter against a fake Sonatel API on loopback', () => {
  let fake: FakeOrangeMoney;
  let om: OrangeMoneyRestGateway;
  /** The adapter on the fake, with these callback settings. */
  const adapter = (callbacks: Partial<OrangeMoneyRestOptions> = {}) =>
    new OrangeMoneyRestGateway({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      apiBase: fake.url,
      merchantCode: fake.merchantCode,
      callbackApiKey: fake.callbackApiKey,
      timeoutMs: PATIENCE_MS,
      ...callbacks,
    });
  beforeAll(async () => {
    fake = await new FakeOrangeMoney().start();
    om = adapter();
  });
  afterAll(() => fake.stop());

  it('creates a QR code payment, reads its status by reference, verifies callbacks by API key', async () => {
    const qr = await om.createQrCode({
      reference: 'pay-om-1',
      amount: { unit: 'XOF', value: 3000 },
      name: 'Kora',
      validity: 300,
      callbackSuccessUrl: 'http://kora.test/payment/success',
      callbackCancelUrl: 'http://kora.test/payment/cancel',
    });
    expect(Buffer.from(qr.qrCode, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(Object.keys(qr.deepLinks).sort()).toEqual(['MAXIT', 'OM']);
    expect(qr).toMatchObject({ validity: 300, metadata: { reference: 'pay-om-1' } });
    const sent = JSON.parse(fake.requestsTo('/api/eWallet/v4/qrcode')[0]!.body);
    expect(sent).toMatchObject({ amount: { unit: 'XOF', value: 3000 }, code: fake.merchantCode, validity: 300 });
    const token = new URLSearchParams(fake.requestsTo('/oauth/v1/token')[0]!.body);
    expect([token.get('grant_type'), token.get('client_id')]).toEqual(['client_credentials', fake.clientId]);

    expect((await om.getTransaction('pay-om-1')).status).toBe('INITIATED');
    await fake.pay('pay-om-1', `${fake.url}/nowhere`); // the callback goes nowhere here
    const paid = await om.getTransaction('pay-om-1');
    expect(paid).toMatchObject({ status: 'SUCCESS', reference: 'pay-om-1', amount: { unit: 'XOF', value: 3000 } });
    expect(fake.requestsTo('/oauth/v1/token')).toHaveLength(1);

    // Every call says it speaks JSON (Sonatel's gateway answers 415 otherwise), the status GET included.
    expect(fake.requestsTo('/api/eWallet/v1/transactions')[0]!.headers['content-type']).toBe('application/json');

    const callback = JSON.stringify(fake.qrs.get('pay-om-1')!.transactions[0]!);
    const basic = { authorization: `Basic ${fake.callbackApiKey}` };
    expect(await om.verifyCallback(basic, callback)).toMatchObject({ status: 'SUCCESS', reference: 'pay-om-1' });
    expect(await om.verifyCallback({ authorization: 'Basic wrong-key-wrong-key-wrong' }, callback)).toBeNull();
    // The other scheme is not this server's setting: refused.
    expect(await om.verifyCallback({ 'x-api-key': fake.callbackApiKey }, callback)).toBeNull();
    expect(await om.verifyCallback({}, callback)).toBeNull();
    const otherMerchant = JSON.stringify({ ...JSON.parse(callback), partner: { idType: 'CODE', id: '999999' } });
    expect(await om.verifyCallback(basic, otherMerchant)).toBeNull();
  });

  it('reads callbacks in the configured scheme, with the HMAC when configured; transient states stay pending', async () => {
    const byHeader = adapter({ callbackAuth: 'x-api-key' });
    const signed = adapter({ callbackHmacSecret: 'a-shared-hmac-secret-0123' });
    const raw = JSON.stringify({
      status: 'ACCEPTED',
      transactionId: 'MP1',
      partner: { idType: 'CODE', id: fake.merchantCode },
      metadata: { reference: 'pay-om-2' },
    });
    const accepted = await byHeader.verifyCallback({ 'x-api-key': fake.callbackApiKey }, raw);
    expect(accepted).toMatchObject({ status: 'PENDING', amount: null });
    expect(await byHeader.verifyCallback({ authorization: `Basic ${fake.callbackApiKey}` }, raw)).toBeNull();
    const basic = { authorization: `Basic ${fake.callbackApiKey}` };
    const { createHmac } = await import('node:crypto');
    const hmac = createHmac('sha256', 'a-shared-hmac-secret-0123').update(raw).digest();
    expect(await signed.verifyCallback(basic, raw)).toBeNull(); // no signature
    expect(await signed.verifyCallback({ ...basic, 'x-sonatel-signature': 'f'.repeat(64) }, raw)).toBeNull();
    expect(await signed.verifyCallback({ ...basic, 'x-sonatel-signature': hmac.toString('hex') }, raw)).not.toBeNull();
    expect(
      await signed.verifyCallback({ ...basic, 'x-sonatel-signature': `sha256=${hmac.toString('base64')}` }, raw),
    ).not.toBeNull();
    // Signed bytes changed: refused.
    const tampered = raw.replace('ACCEPTED', 'SUCCESS');
    expect(await signed.verifyCallback({ ...basic, 'x-sonatel-signature': hmac.toString('hex') }, tampered)).toBeNull();
  });

  it('registers the merchant callback with its API key', async () => {
    const answer = await om.registerCallback('https://kora.example/api/payments/orange-money/callback', 'Kora');
    expect(answer.status).toBe(200);
    expect(fake.callbacks.at(-1)).toEqual({
      apiKey: fake.callbackApiKey,
      code: fake.merchantCode,
      name: 'Kora',
      callbackUrl: 'https://kora.example/api/payments/orange-money/callback',
    });
  });

  it('5xx and timeouts are ProviderUnavailable; a 4xx is a refusal', async () => {
    fake.failWith = 502;
    try {
      expect(await om.getTransaction('x').catch((error: unknown) => error)).toBeInstanceOf(ProviderUnavailable);
    } finally {
      fake.failWith = null;
    }
    fake.delayMs = 2 * PATIENCE_MS;
    try {
      expect(await om.getTransaction('x').catch((error: unknown) => error)).toBeInstanceOf(ProviderUnavailable);
    } finally {
      fake.delayMs = 0;
    }
    const refused = await om
      .createQrCode({
        reference: 'pay-om-2',
        amount: { unit: 'XOF', value: 12.5 },
        name: 'Kora',
        validity: 300,
        callbackSuccessUrl: 'http://kora.test/s',
        callbackCancelUrl: 'http://kora.test/c',
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderRefusal);
  });
});

describe('the server with both real adapters (fakes on loopback)', () => {
  let paypal: FakePayPal;
  let om: FakeOrangeMoney;
  let test: TestApp;
  let auth: { Authorization: string };

  beforeAll(async () => {
    paypal = await new FakePayPal().start();
    om = await new FakeOrangeMoney().start();
    test = await startTestApp({
      env: { ...paypalEnv(paypal), ...orangeMoneyEnv(om) },
    });
    auth = { Authorization: `Bearer ${await test.token('real-providers')}` };
  }, 60_000);
  afterAll(async () => {
    await test?.close();
    await paypal?.stop();
    await om?.stop();
  });

  it('tells the client to use PayPal’s JS SDK with the client id (never the secret)', async () => {
    const config = await request(test.url).get('/api/payments/config').set(auth).expect(200);
    expect(config.body).toEqual({ paypal: { mode: 'live', clientId: paypal.clientId }, orangeMoney: { mode: 'live' } });
    expect(JSON.stringify(config.body)).not.toContain(paypal.clientSecret);
  });

  it('PayPal: a pack bought through Orders v2; a verified capture webhook repeats nothing', async () => {
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(auth)
      .send({ provider: 'PAYPAL', currency: 'USD', planId: 'mastering-starter', paymentType: 'PACK' })
      .expect(201);
    expect(intent.body.approveUrl).toContain('checkoutnow?token=');
    await request(test.url).post(`/api/payments/paypal/capture/${intent.body.orderId}`).set(auth).expect(409);
    paypal.approve(intent.body.orderId);
    const captured = await request(test.url)
      .post(`/api/payments/paypal/capture/${intent.body.orderId}`)
      .set(auth)
      .expect(200);
    expect(captured.body).toMatchObject({ success: true, status: 'paid' });
    const current = await request(test.url).get('/api/subscriptions/current').set(auth).expect(200);
    expect(current.body.subscription.remaining.AI_MASTERING).toBe(5);
    // PayPal's own webhook for that capture, verified by PayPal, changes nothing more.
    const capture = paypal.orders.get(intent.body.orderId)!.purchase_units[0]!.payments as {
      captures: Array<Record<string, unknown>>;
    };
    const delivery = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', capture.captures[0]!);
    await request(test.url).post('/api/payments/paypal/webhook').set(delivery.headers).send(delivery.raw).expect(200);
    await request(test.url)
      .post('/api/payments/paypal/webhook')
      .set({ ...delivery.headers, 'paypal-transmission-sig': 'forged' })
      .send(delivery.raw)
      .expect(401);
    const grants = (await eventsOf(test, ['PackPurchased'])).filter(
      (e) => (e.data as { paymentId: string }).paymentId === intent.body.paymentId,
    );
    expect(grants).toHaveLength(1);
    // A verified capture webhook naming this server's payment but another order, for 0.01 USD: kept, not granted.
    const other = await request(test.url)
      .post('/api/payments/createIntent')
      .set(auth)
      .send({ provider: 'PAYPAL', currency: 'USD', planId: 'mastering-starter', paymentType: 'PACK' })
      .expect(201);
    const stray = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', {
      id: 'CAPTURE-OF-ANOTHER-ORDER',
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '0.01' },
      custom_id: other.body.paymentId,
      supplementary_data: { related_ids: { order_id: 'ANOTHER-ORDER' } },
    });
    await request(test.url).post('/api/payments/paypal/webhook').set(stray.headers).send(stray.raw).expect(200);
    const anomalies = (await eventsOf(test, ['PaymentAnomalyDetected', 'PackPurchased'])).filter(
      (e) =>
        e.streamName === `payment-${other.body.paymentId}` ||
        (e.data as { paymentId?: string }).paymentId === other.body.paymentId,
    );
    expect(anomalies.map((e) => [e.type, (e.data as { kind?: string }).kind])).toEqual([
      ['PaymentAnomalyDetected', 'UNKNOWN_ORDER'],
    ]);
    // No sandbox with two real providers (a GET the server has no route for gets the client's page).
    const knobs = await request(test.url).get('/sandbox/knobs');
    expect(knobs.body.decline).toBeUndefined();
    await request(test.url).put('/sandbox/knobs').send({ decline: true }).expect(404);
  });

  it('Orange Money: a track paid by QR code; Sonatel’s callback, confirmed by the status API, unlocks it', async () => {
    const trackId = await seedTrack(test, 'real-providers', 'AI_MASTERING');
    const intent = await orangeMoneyTrackIntent(test.url, auth, trackId);
    expect(intent.body).toMatchObject({ merchantCode: om.merchantCode, amount: 3000, validity: 300 });
    const pending = await request(test.url)
      .post('/api/payments/status')
      .set(auth)
      .send({ paymentIntentId: intent.body.paymentId })
      .expect(200);
    expect(pending.body.status).toBe('PENDING');
    const callbackUrl = `${test.url}/api/payments/orange-money/callback`;
    const claim = JSON.stringify({
      status: 'SUCCESS',
      metadata: { reference: intent.body.paymentId },
      amount: { unit: 'XOF', value: 3000 },
    });
    const post = (headers: Record<string, string>) =>
      fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: claim });
    // Forged, or in a scheme this server is not set to: 401.
    expect((await post({ authorization: 'Basic not-the-key-not-the-key' })).status).toBe(401);
    expect((await post({ 'x-api-key': om.callbackApiKey })).status).toBe(401);
    expect(await om.pay(intent.body.paymentId, callbackUrl, 'FAILED', { auth: 'forged' })).toBe(401);
    // With the key but unconfirmed by the status API (nobody paid): nothing granted, 502 so it can come again.
    expect((await post({ authorization: `Basic ${om.callbackApiKey}` })).status).toBe(502);
    // ACCEPTED is transient: still pending.
    expect(await om.pay(intent.body.paymentId, callbackUrl, 'ACCEPTED')).toBe(200);
    const accepted = await request(test.url).get(`/api/audio/track/${trackId}`).set(auth).expect(200);
    expect(accepted.body.unlocked).toBe(false);
    expect(await om.pay(intent.body.paymentId, callbackUrl)).toBe(200);
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(auth).expect(200);
    expect(track.body).toMatchObject({ unlocked: true, status: 'MASTER_READY' });
    const captured = (await eventsOf(test, ['PaymentCaptured'])).filter(
      (e) => e.streamName === `payment-${intent.body.paymentId}`,
    );
    expect(captured).toHaveLength(1);
    expect(captured[0]!.data).toMatchObject({ source: 'callback', amount: { amount: 3000, currency: 'XOF' } });
  });

  it('Orange Money: a SUCCESS without an amount is kept for an operator, never granted', async () => {
    const trackId = await seedTrack(test, 'real-providers', 'AI_MASTERING');
    const intent = await orangeMoneyTrackIntent(test.url, auth, trackId);
    const callbackUrl = `${test.url}/api/payments/orange-money/callback`;
    expect(await om.pay(intent.body.paymentId, callbackUrl, 'SUCCESS', { amount: null })).toBe(200);
    const events = (await eventsOf(test, ['PaymentAnomalyDetected', 'PaymentCaptured'])).filter(
      (e) => e.streamName === `payment-${intent.body.paymentId}`,
    );
    expect(events.map((e) => [e.type, (e.data as { kind?: string }).kind])).toEqual([
      ['PaymentAnomalyDetected', 'AMOUNT_MISSING'],
    ]);
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(auth).expect(200);
    expect(track.body.unlocked).toBe(false);
  });
});

describe('payment provider configuration', () => {
  it('fails fast, naming what is missing', () => {
    const problems = configProblems;
    expect(problems({ PAYPAL_CLIENT_ID: 'id', ORANGE_MONEY: 'off' })).toEqual([
      'PAYPAL_CLIENT_SECRET: required with PAYPAL_CLIENT_ID (PayPal REST)',
    ]);
    expect(problems({ PAYPAL_CLIENT_SECRET: 'secret' })[0]).toContain('PAYPAL_CLIENT_ID: required');
    expect(problems({ ORANGE_MONEY_CLIENT_ID: 'id', ORANGE_MONEY_CLIENT_SECRET: 's', PAYPAL: 'off' })).toEqual([
      'ORANGE_MONEY_MERCHANT_CODE: required with ORANGE_MONEY_CLIENT_ID (Orange Money REST)',
      'ORANGE_MONEY_CALLBACK_API_KEY: required with ORANGE_MONEY_CLIENT_ID (Orange Money REST)',
    ]);
    expect(problems({ PAYPAL_ENV: 'production' })[0]).toContain('PAYPAL_ENV');
    expect(
      problems({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_ENV: 'live', ORANGE_MONEY: 'off' }),
    ).toEqual([]);
  });
});
