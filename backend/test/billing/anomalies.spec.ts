import { Anomalies, PaymentSandbox } from '@kora/billing';
import { EventStore, Mailer, ReadStore } from '@kora/kernel';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { runAudit } from '../../src/cli/audit-run';
import { OutboxMailer } from '../../src/infra/mail/mailers';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';
import {
  AUDIT_CLI,
  BILLING_CLI,
  buyPackOverHttp,
  eventsOf,
  orangeMoneyTrackIntent,
  runCli,
  seedTrack,
  signedIn,
  type SignedIn,
} from './billing-support';

const OPERATOR = 'payments@kora.example';

describe('money that does not match its sale is kept for an operator, never granted', () => {
  let test: TestApp;
  let buyer: SignedIn;
  const sandbox = () => test.app.get(PaymentSandbox);
  const eventsOfPayment = async (paymentId: string, types: string[]) =>
    (await eventsOf(test, types)).filter((e) => e.streamName === `payment-${paymentId}`);
  const audit = async () => (await runAudit(test.app.get(EventStore), test.app.get(ReadStore), {})).report;
  const violationsOf = async (paymentId: string) =>
    (await audit()).violations.filter((v) => v.message.includes(paymentId)).map((v) => v.rule);

  beforeAll(async () => {
    test = await startTestApp({
      env: { BILLING_OPERATOR_EMAIL: OPERATOR, BILLING_RECONCILE_SECONDS: '0', BILLING_RECONCILE_MIN_AGE_SECONDS: '0' },
    });
    buyer = await signedIn(test, 'anomaly-buyer');
  }, 60_000);
  afterAll(() => test?.close());
  afterEach(() => {
    sandbox().setKnobs({ payAmount: null, webhooks: true });
  });

  /** Mastering credits left (no pack at all: 404 NO_SUBSCRIPTION, none). */
  const credits = async (): Promise<number> => {
    const current = await request(test.url).get('/api/subscriptions/current').set(buyer.auth);
    if (current.status === 404) return 0;
    return current.body.subscription.remaining.AI_MASTERING as number;
  };

  it('a PayPal capture of 0.01 USD for a 19.99 USD pack: under review, no credits, operators told; granted by an operator', async () => {
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(buyer.auth)
      .send({ provider: 'PAYPAL', currency: 'USD', planId: 'mastering-starter', paymentType: 'PACK' })
      .expect(201);
    sandbox().setKnobs({ payAmount: '0.01' });
    await request(test.url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
    const capture = await request(test.url)
      .post(`/api/payments/paypal/capture/${intent.body.orderId}`)
      .set(buyer.auth)
      .expect(409);
    expect(capture.body.code).toBe('BILLING.PAYMENT_UNDER_REVIEW');
    const paymentId = intent.body.paymentId as string;
    // The webhook of the same capture comes too: still one anomaly, still nothing granted.
    await test.app.get((await import('@kora/billing')).PaymentReconciler).runOnce();
    const anomalies = await eventsOfPayment(paymentId, ['PaymentAnomalyDetected']);
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]!.data).toMatchObject({
      kind: 'UNDERPAID',
      reported: { amount: 1, currency: 'USD' },
      expected: { amount: 1999, currency: 'USD' },
      providerRef: intent.body.orderId,
      statusBefore: 'pending',
    });
    expect(await eventsOfPayment(paymentId, ['PaymentCaptured'])).toEqual([]);
    expect(await credits()).toBe(0);
    expect(await violationsOf(paymentId)).toEqual(['payment.anomaly']);

    // Operators are told by mail (and in the log).
    const outbox = test.app.get(Mailer) as OutboxMailer;
    let mail;
    for (let i = 0; i < 100 && !mail; i += 1) {
      mail = (await outbox.list()).find((m) => m.to === OPERATOR && m.subject.includes(paymentId));
      if (!mail) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(mail?.subject).toBe(`[Kora] Payment anomaly: UNDERPAID on ${paymentId}`);

    // Checked at PayPal, the operator grants it: the pack is granted once, the audit is clean.
    const captureId = (anomalies[0]!.data as { captureId: string }).captureId;
    const outcome = await test.app.get(Anomalies).resolve(paymentId, captureId, 'grant', 'buyer paid the rest by bank');
    expect(outcome.resolvedNow).toBe(true);
    expect((await test.app.get(Anomalies).resolve(paymentId, captureId, 'grant', 'again')).resolvedNow).toBe(false);
    expect(await credits()).toBe(5);
    expect(await violationsOf(paymentId)).toEqual([]);
  });

  it('an Orange Money SUCCESS without an amount is never granted (fail closed); refunded by an operator', async () => {
    const trackId = await seedTrack(test, buyer.userId);
    const intent = await orangeMoneyTrackIntent(test.url, buyer.auth, trackId);
    const paymentId = intent.body.paymentId as string;
    sandbox().setKnobs({ payAmount: '' });
    await request(test.url).post(`/sandbox/orange-money/payments/${paymentId}/pay`).send({}).expect(200);
    const status = await request(test.url)
      .post('/api/payments/status')
      .set(buyer.auth)
      .send({ paymentIntentId: paymentId })
      .expect(200);
    expect(status.body.status).toBe('PENDING');
    const [anomaly] = await eventsOfPayment(paymentId, ['PaymentAnomalyDetected']);
    expect(anomaly!.data).toMatchObject({ kind: 'AMOUNT_MISSING', reported: null });
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(buyer.auth).expect(200);
    expect(track.body.unlocked).toBe(false);
    const captureId = (anomaly!.data as { captureId: string }).captureId;
    await test.app.get(Anomalies).resolve(paymentId, captureId, 'refund', 'refunded at Orange Money', 'OM-REFUND-1');
    expect(await violationsOf(paymentId)).toEqual([]);
    expect(await eventsOfPayment(paymentId, ['PaymentCaptured'])).toEqual([]);
  });

  it('an Orange Money code paid after the buyer cancelled it: recorded as paid after close, nothing unlocked', async () => {
    const trackId = await seedTrack(test, buyer.userId);
    const intent = await orangeMoneyTrackIntent(test.url, buyer.auth, trackId);
    const paymentId = intent.body.paymentId as string;
    await request(test.url).post(`/api/payments/orange-money/${paymentId}/cancel`).set(buyer.auth).expect(200);
    // The code stays payable at Orange Money until its validity ends: the buyer pays it anyway.
    await request(test.url).post(`/sandbox/orange-money/payments/${paymentId}/pay`).send({}).expect(200);
    let anomalies: Awaited<ReturnType<typeof eventsOfPayment>> = [];
    for (let i = 0; i < 100 && anomalies.length === 0; i += 1) {
      anomalies = await eventsOfPayment(paymentId, ['PaymentAnomalyDetected']);
      if (anomalies.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(anomalies[0]!.data).toMatchObject({
      kind: 'PAID_AFTER_CLOSE',
      statusBefore: 'cancelled',
      reported: { amount: 3000, currency: 'XOF' },
    });
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(buyer.auth).expect(200);
    expect(track.body.unlocked).toBe(false);
    expect(await violationsOf(paymentId)).toEqual(['payment.anomaly']);
  });

  it('refunds and chargebacks reported by PayPal take back the unspent credits, once; a paid track stays unlocked', async () => {
    const refunded = await signedIn(test, 'refund-webhook-buyer');
    const pack = await buyPackOverHttp(test.url, refunded.auth); // 5 credits
    for (let i = 0; i < 2; i += 1) {
      const trackId = await seedTrack(test, refunded.userId);
      await request(test.url)
        .post(`/api/audio/track/${trackId}/master`)
        .set(refunded.auth)
        .send({ credit: true })
        .expect(200);
    }
    // Refunded in PayPal's dashboard: 5.00 first, then what is left. As PayPal does, the sandbox refuses a refund
    // past the capture, and an amount that is not one.
    const refundUrl = `/sandbox/paypal/orders/${pack.orderId}/refund`;
    await request(test.url).post(refundUrl).send({ amount: '5.00' }).expect(200);
    const rest = await request(test.url).post(refundUrl).send({}).expect(200);
    expect(rest.body.amount).toEqual({ currency_code: 'USD', value: '14.99' });
    const past = await request(test.url).post(refundUrl).send({ amount: '0.01' }).expect(422);
    expect(past.body.details[0].issue).toBe('REFUND_AMOUNT_EXCEEDED');
    for (const amount of ['five', '-1.00', 5, '0.00']) {
      const invalid = await request(test.url).post(refundUrl).send({ amount }).expect(422);
      expect(invalid.body.details[0].issue).toBe('INVALID_PARAMETER_VALUE');
    }
    const refunds = await eventsOfPayment(pack.paymentId, ['PaymentRefunded']);
    expect(refunds.map((refund) => (refund.data as { amount: unknown }).amount)).toEqual([
      { amount: 500, currency: 'USD' },
      { amount: 1499, currency: 'USD' },
    ]);
    expect(refunds[0]!.data).toMatchObject({ source: 'provider' });
    const revoked = (await eventsOf(test, ['CreditsRevoked'])).filter(
      (e) => (e.data as { paymentId: string }).paymentId === pack.paymentId,
    );
    expect(revoked.map((e) => (e.data as { credits: number }).credits)).toEqual([3]);
    const history = await request(test.url).get('/api/payments/history').set(refunded.auth).expect(200);
    expect(history.body.payments[0]).toMatchObject({ status: 'refunded' });

    // A chargeback on a track bought with PayPal: recorded as a reversal; the delivered result stays unlocked.
    const trackId = await seedTrack(test, refunded.userId);
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(refunded.auth)
      .send({ provider: 'PAYPAL', currency: 'EUR', trackId })
      .expect(201);
    await request(test.url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
    await request(test.url).post(`/api/payments/paypal/capture/${intent.body.orderId}`).set(refunded.auth).expect(200);
    await request(test.url)
      .post(`/sandbox/paypal/orders/${intent.body.orderId}/refund`)
      .send({ outcome: 'reverse' })
      .expect(200);
    const [reversal] = await eventsOfPayment(intent.body.paymentId, ['PaymentRefunded']);
    expect(reversal!.data).toMatchObject({ reversal: true, source: 'provider' });
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(refunded.auth).expect(200);
    expect(track.body.unlocked).toBe(true);
    expect(await violationsOf(pack.paymentId)).toEqual([]);
    expect(await violationsOf(intent.body.paymentId)).toEqual([]);
  });
});

describe('operators resolve anomalies from the command line; the audit fails until they do', () => {
  const dir = tempDir('kora-anomaly-');
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp({ dataDir: dir.path });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
    dir.cleanup();
  });

  it('npm run audit exits 1 naming the command; npm run billing -- anomaly grant grants it once', async () => {
    const buyer = await signedIn(test, 'cli-anomaly');
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(buyer.auth)
      .send({ provider: 'PAYPAL', currency: 'EUR', planId: 'mastering-starter', paymentType: 'PACK' })
      .expect(201);
    test.app.get(PaymentSandbox).setKnobs({ payAmount: '25.00' }); // overpaid: 25 EUR for 18.99 EUR
    try {
      await request(test.url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
      await request(test.url).post(`/api/payments/paypal/capture/${intent.body.orderId}`).set(buyer.auth).expect(409);
    } finally {
      test.app.get(PaymentSandbox).setKnobs({ payAmount: null });
    }
    const paymentId = intent.body.paymentId as string;
    const [anomaly] = (await eventsOf(test, ['PaymentAnomalyDetected'])).filter(
      (e) => e.streamName === `payment-${paymentId}`,
    );
    const captureId = (anomaly!.data as { captureId: string; kind: string }).captureId;
    expect((anomaly!.data as { kind: string }).kind).toBe('OVERPAID');

    const open = await runCli(AUDIT_CLI, dir.path);
    expect(open.code).toBe(1);
    expect(open.stdout).toContain('[payment.anomaly]');
    expect(open.stdout).toContain(`npm run billing -- anomaly grant|refund ${paymentId} ${captureId}`);
    // Revenue is counted only once the money is granted.
    expect(open.stdout).not.toMatch(/EUR\s+PAYPAL/);

    const refused = await runCli(BILLING_CLI, dir.path, ['anomaly', 'refund', paymentId, captureId]);
    expect(refused.code).toBe(2); // a refund needs the provider's refund id
    const granted = await runCli(BILLING_CLI, dir.path, [
      'anomaly',
      'grant',
      paymentId,
      captureId,
      '--note',
      'checked',
    ]);
    expect({ [granted.stderr]: granted.code }).toEqual({ [granted.stderr]: 0 });
    expect(granted.stdout).toContain(`Resolved: payment ${paymentId} of cli-anomaly, capture ${captureId} granted.`);
    const again = await runCli(BILLING_CLI, dir.path, ['anomaly', 'grant', paymentId, captureId]);
    expect(again.stdout).toContain('Already resolved');
    const unknown = await runCli(BILLING_CLI, dir.path, ['anomaly', 'grant', paymentId, 'NO-SUCH-CAPTURE']);
    expect(unknown.code).toBe(4);

    await test.app
      .get((await import('@kora/kernel')).ProjectionRunner)
      .waitFor(await test.app.get(EventStore).headPosition());
    const grants = (await eventsOf(test, ['PackPurchased'])).filter(
      (e) => (e.data as { paymentId: string }).paymentId === paymentId,
    );
    expect(grants).toHaveLength(1);
    const clean = await runCli(AUDIT_CLI, dir.path);
    expect({ [clean.stdout]: clean.code }).toEqual({ [clean.stdout]: 0 });
  }, 120_000);
});
