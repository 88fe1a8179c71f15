import { EventStore, ReadStore } from '@kora/kernel';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAudit } from '../../src/cli/audit-run';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsOf, orangeMoneyTrackIntent, seedTrack } from './billing-support';
import { FakeOrangeMoney, FakePayPal, orangeMoneyEnv, paypalEnv } from './fake-providers';

/** A committed payload with its placeholders filled in; every other byte is sent as written. */
function fixture(name: string, values: Record<string, string | number>): string {
  const text = readFileSync(join(__dirname, 'fixtures', name), 'utf8');
  return text.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`${name}: no value for {{${key}}}`);
    return String(values[key]);
  });
}

describe('the providers’ real-shaped deliveries, replayed through the real adapters (fakes on loopback)', () => {
  let paypal: FakePayPal;
  let om: FakeOrangeMoney;
  let test: TestApp;
  let sequence = 0;

  beforeAll(async () => {
    paypal = await new FakePayPal().start();
    om = await new FakeOrangeMoney().start();
    om.hmacSecret = 'sonatel-shared-hmac-secret';
    test = await startTestApp({
      env: { ...paypalEnv(paypal), ...orangeMoneyEnv(om), BILLING_RECONCILE_SECONDS: '0' },
    });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
    await paypal?.stop();
    await om?.stop();
  });

  const buyer = async () => {
    sequence += 1;
    const userId = `payloads-${sequence}`;
    return { userId, auth: { Authorization: `Bearer ${await test.token(userId)}` } };
  };
  const deliver = (raw: string) =>
    request(test.url).post('/api/payments/paypal/webhook').set(paypal.transmission(raw)).send(raw);
  const packIntent = async (auth: { Authorization: string }) =>
    (
      await request(test.url)
        .post('/api/payments/createIntent')
        .set(auth)
        .send({ provider: 'PAYPAL', currency: 'USD', planId: 'mastering-starter', paymentType: 'PACK' })
        .expect(201)
    ).body as { paymentId: string; orderId: string };
  const remaining = async (auth: { Authorization: string }) => {
    const current = await request(test.url).get('/api/subscriptions/current').set(auth);
    return current.status === 404 ? 0 : (current.body.subscription.remaining.AI_MASTERING as number);
  };
  const ofPayment = async (paymentId: string, types: string[]) =>
    (await eventsOf(test, types)).filter(
      (e) => e.streamName === `payment-${paymentId}` || (e.data as { paymentId?: string }).paymentId === paymentId,
    );
  const auditOf = async (paymentId: string) =>
    (await runAudit(test.app.get(EventStore), test.app.get(ReadStore), {})).report.violations
      .filter((v) => v.message.includes(paymentId))
      .map((v) => v.rule);

  it('PAYMENT.CAPTURE.COMPLETED for 0.01 USD of a 19.99 USD pack: an anomaly, twice delivered, nothing granted', async () => {
    const { auth } = await buyer();
    const intent = await packIntent(auth);
    const raw = fixture('paypal/payment-capture-completed.json', {
      CAPTURE_ID: '2GG279541U471931P',
      ORDER_ID: intent.orderId,
      PAYMENT_ID: intent.paymentId,
      CURRENCY: 'USD',
      VALUE: '0.01',
      NET: '0.00',
    });
    await deliver(raw).expect(200);
    await deliver(raw).expect(200); // PayPal delivers again: nothing more
    const events = await ofPayment(intent.paymentId, ['PaymentAnomalyDetected', 'PaymentCaptured', 'PackPurchased']);
    expect(events.map((e) => [e.type, (e.data as { kind?: string }).kind])).toEqual([
      ['PaymentAnomalyDetected', 'UNDERPAID'],
    ]);
    expect(await remaining(auth)).toBe(0);
    expect(await auditOf(intent.paymentId)).toEqual(['payment.anomaly']);
  });

  it('a refund after credits were partly spent, and a chargeback named only by its capture, take back what is left', async () => {
    const { userId, auth } = await buyer();
    const intent = await packIntent(auth);
    paypal.approve(intent.orderId);
    await request(test.url).post(`/api/payments/paypal/capture/${intent.orderId}`).set(auth).expect(200);
    const capture = paypal.orders.get(intent.orderId)!.purchase_units[0]!.payments as {
      captures: Array<{ id: string }>;
    };
    const captureId = capture.captures[0]!.id;
    // PayPal's own COMPLETED webhook for that capture: nothing more.
    await deliver(
      fixture('paypal/payment-capture-completed.json', {
        CAPTURE_ID: captureId,
        ORDER_ID: intent.orderId,
        PAYMENT_ID: intent.paymentId,
        CURRENCY: 'USD',
        VALUE: '19.99',
        NET: '19.40',
      }),
    ).expect(200);
    for (let i = 0; i < 2; i += 1) {
      const trackId = await seedTrack(test, userId);
      await request(test.url).post(`/api/audio/track/${trackId}/master`).set(auth).send({ credit: true }).expect(200);
    }
    const refund = fixture('paypal/payment-capture-refunded.json', {
      REFUND_ID: '1JU08902781691411',
      CAPTURE_ID: captureId,
      PAYMENT_ID: intent.paymentId,
      CURRENCY: 'USD',
      VALUE: '19.99',
    });
    await deliver(refund).expect(200);
    await deliver(refund).expect(200);
    const refunds = await ofPayment(intent.paymentId, ['PaymentRefunded', 'CreditsRevoked']);
    expect(refunds.map((e) => e.type)).toEqual(['PaymentRefunded', 'CreditsRevoked']);
    expect(refunds[1]!.data).toMatchObject({ credits: 3 });
    expect(await remaining(auth)).toBe(0);
    expect(await auditOf(intent.paymentId)).toEqual([]);

    // A chargeback whose resource names neither custom_id nor invoice_id: found by its capture.
    const other = await buyer();
    const second = await packIntent(other.auth);
    paypal.approve(second.orderId);
    await request(test.url).post(`/api/payments/paypal/capture/${second.orderId}`).set(other.auth).expect(200);
    const secondCapture = (
      paypal.orders.get(second.orderId)!.purchase_units[0]!.payments as { captures: Array<{ id: string }> }
    ).captures[0]!.id;
    await deliver(
      fixture('paypal/payment-capture-reversed.json', {
        REFUND_ID: '5VX35207MN402271U',
        CAPTURE_ID: secondCapture,
        CURRENCY: 'USD',
        VALUE: '19.99',
      }),
    ).expect(200);
    const [reversal] = await ofPayment(second.paymentId, ['PaymentRefunded']);
    expect(reversal!.data).toMatchObject({ reversal: true, amount: { amount: 1999, currency: 'USD' } });
    expect(await remaining(other.auth)).toBe(0);
    expect(await auditOf(second.paymentId)).toEqual([]);
  });

  it('a partial refund, then a chargeback of the rest: both recorded, credits taken back once; no refund beyond the capture', async () => {
    const { userId, auth } = await buyer();
    const intent = await packIntent(auth);
    paypal.approve(intent.orderId);
    await request(test.url).post(`/api/payments/paypal/capture/${intent.orderId}`).set(auth).expect(200);
    const captureId = (
      paypal.orders.get(intent.orderId)!.purchase_units[0]!.payments as { captures: Array<{ id: string }> }
    ).captures[0]!.id;
    const trackId = await seedTrack(test, userId);
    await request(test.url).post(`/api/audio/track/${trackId}/master`).set(auth).send({ credit: true }).expect(200);
    const partial = fixture('paypal/payment-capture-refunded.json', {
      REFUND_ID: '3FH58301AA2294410',
      CAPTURE_ID: captureId,
      PAYMENT_ID: intent.paymentId,
      CURRENCY: 'USD',
      VALUE: '5.00',
    });
    await deliver(partial).expect(200);
    await deliver(partial).expect(200); // delivered again: the same refund id, nothing more
    const chargeback = fixture('paypal/payment-capture-reversed.json', {
      REFUND_ID: '7KC12044PL553021D',
      CAPTURE_ID: captureId,
      CURRENCY: 'USD',
      VALUE: '14.99',
    });
    await deliver(chargeback).expect(200);
    await deliver(chargeback).expect(200);
    const recorded = await ofPayment(intent.paymentId, ['PaymentRefunded', 'CreditsRevoked']);
    expect(recorded.map((e) => [e.type, (e.data as { refundId?: string }).refundId ?? null])).toEqual([
      ['PaymentRefunded', '3FH58301AA2294410'],
      ['CreditsRevoked', null],
      ['PaymentRefunded', '7KC12044PL553021D'],
    ]);
    expect(recorded[1]!.data).toMatchObject({ credits: 4 }); // the five of the pack, one spent
    expect(recorded[2]!.data).toMatchObject({ reversal: true, amount: { amount: 1499, currency: 'USD' } });
    expect(await remaining(auth)).toBe(0);
    const status = await request(test.url)
      .post('/api/payments/status')
      .set(auth)
      .send({ paymentIntentId: intent.paymentId })
      .expect(200);
    expect(status.body.status).toBe('REFUNDED');
    expect(await auditOf(intent.paymentId)).toEqual([]);

    // One more refund than the capture holds: refused, nothing recorded (PayPal delivers it again; operators look).
    const beyond = await deliver(
      fixture('paypal/payment-capture-refunded.json', {
        REFUND_ID: '9ZZ00000AA0000000',
        CAPTURE_ID: captureId,
        PAYMENT_ID: intent.paymentId,
        CURRENCY: 'USD',
        VALUE: '1.00',
      }),
    );
    expect([beyond.status, beyond.body.code]).toEqual([409, 'BILLING.REFUND_EXCEEDS_CAPTURE']);
    expect(await ofPayment(intent.paymentId, ['PaymentRefunded'])).toHaveLength(2);
    expect(await auditOf(intent.paymentId)).toEqual([]);
  });

  it('reordered: the refund arrives before anything told this server of the capture; the late COMPLETED changes nothing', async () => {
    const { auth } = await buyer();
    const intent = await packIntent(auth);
    paypal.approve(intent.orderId);
    const capture = paypal.captureAtPayPal(intent.orderId) as { id: string };
    await deliver(
      fixture('paypal/payment-capture-refunded.json', {
        REFUND_ID: '8NB51216KS7704011',
        CAPTURE_ID: capture.id,
        PAYMENT_ID: intent.paymentId,
        CURRENCY: 'USD',
        VALUE: '19.99',
      }),
    ).expect(200);
    await deliver(
      fixture('paypal/payment-capture-completed.json', {
        CAPTURE_ID: capture.id,
        ORDER_ID: intent.orderId,
        PAYMENT_ID: intent.paymentId,
        CURRENCY: 'USD',
        VALUE: '19.99',
        NET: '19.40',
      }),
    ).expect(200);
    const events = await ofPayment(intent.paymentId, [
      'PaymentCaptured',
      'PackPurchased',
      'PaymentRefunded',
      'CreditsRevoked',
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'PaymentCaptured',
      'PackPurchased',
      'PaymentRefunded',
      'CreditsRevoked',
    ]);
    expect(await remaining(auth)).toBe(0);
    expect(await auditOf(intent.paymentId)).toEqual([]);
  });

  it('a COMPLETED delivery that names no order is checked with PayPal’s order before anything is recorded', async () => {
    const { auth } = await buyer();
    const intent = await packIntent(auth);
    // Names our payment, claims 19.99 USD, but no order: on its own word, nothing.
    const claim = fixture('paypal/payment-capture-completed.json', {
      CAPTURE_ID: '3C679366HH908993F',
      ORDER_ID: intent.orderId,
      PAYMENT_ID: intent.paymentId,
      CURRENCY: 'USD',
      VALUE: '19.99',
      NET: '19.40',
    }).replace(/"supplementary_data": \{[^}]*\} \},\n/, '');
    expect(claim).not.toContain('supplementary_data');
    await deliver(claim).expect(200);
    expect(await ofPayment(intent.paymentId, ['PaymentCaptured', 'PaymentAnomalyDetected'])).toEqual([]);
    // Once PayPal's order is captured, the same delivery records what the order says.
    paypal.approve(intent.orderId);
    const capture = paypal.captureAtPayPal(intent.orderId) as { id: string };
    await deliver(claim).expect(200);
    const [captured] = await ofPayment(intent.paymentId, ['PaymentCaptured']);
    expect(captured!.data).toMatchObject({ captureId: capture.id, amount: { amount: 1999, currency: 'USD' } });
    expect(await remaining(auth)).toBe(5);
  });

  it('Orange Money’s callback, signed and with its Basic key, as Sonatel sends it; tampered bytes are refused', async () => {
    const { userId, auth } = await buyer();
    const trackId = await seedTrack(test, userId);
    const intent = await orangeMoneyTrackIntent(test.url, auth, trackId);
    const callbackUrl = `${test.url}/api/payments/orange-money/callback`;
    // The buyer pays: the fake settles it and sends its own delivery (Basic key, idempotency key, HMAC).
    expect(await om.pay(intent.body.paymentId, callbackUrl)).toBe(200);
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(auth).expect(200);
    expect(track.body.unlocked).toBe(true);

    // The committed payload, signed, then one byte changed after signing: 401.
    const raw = fixture('orange-money/merchant-payment-callback.json', {
      VALUE: 3000,
      MERCHANT_CODE: om.merchantCode,
      TRANSACTION_REFERENCE: 'OM-5f3a9c1e',
      TRANSACTION_ID: 'MP241127.1031.A12345',
      STATUS: 'SUCCESS',
      PAYMENT_ID: intent.body.paymentId,
    });
    const { createHmac } = await import('node:crypto');
    const headers = {
      'content-type': 'application/json',
      authorization: `Basic ${om.callbackApiKey}`,
      'x-sonatel-idempotency-key': 'b6f1c2d4e5a60718',
      'x-sonatel-signature': createHmac('sha256', om.hmacSecret!).update(raw).digest('hex'),
    };
    await request(test.url).post('/api/payments/orange-money/callback').set(headers).send(raw).expect(200);
    await request(test.url)
      .post('/api/payments/orange-money/callback')
      .set(headers)
      .send(raw.replace('"value": 3000', '"value": 30'))
      .expect(401);
    const captured = await ofPayment(intent.body.paymentId, ['PaymentCaptured', 'PaymentAnomalyDetected']);
    expect(captured.map((e) => e.type)).toEqual(['PaymentCaptured']);
  });

  it('Orange Money’s REFUNDED, confirmed by the status API, is recorded once; the paid track stays unlocked', async () => {
    const { userId, auth } = await buyer();
    const trackId = await seedTrack(test, userId);
    const intent = await orangeMoneyTrackIntent(test.url, auth, trackId);
    const callbackUrl = `${test.url}/api/payments/orange-money/callback`;
    expect(await om.pay(intent.body.paymentId, callbackUrl)).toBe(200);
    expect(await om.pay(intent.body.paymentId, callbackUrl, 'REFUNDED')).toBe(200);
    expect(await om.pay(intent.body.paymentId, callbackUrl, 'REFUNDED')).toBe(200); // delivered again
    const refunds = await ofPayment(intent.body.paymentId, ['PaymentRefunded']);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.data).toMatchObject({ source: 'provider', amount: { amount: 3000, currency: 'XOF' } });
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(auth).expect(200);
    expect(track.body.unlocked).toBe(true);
    expect(await auditOf(intent.body.paymentId)).toEqual([]);
  });
});
