import { PaymentReconciler, PaymentSandbox } from '@kora/billing';
import { ReadStore } from '@kora/kernel';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestClock } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsOf, signedIn, type SignedIn } from './billing-support';

const HOUR = 60 * 60 * 1000;

/** A PayPal checkout the payer leaves: closed without approving, or never come back to. */
describe('billing: an abandoned PayPal checkout', () => {
  const clock = new TestClock(new Date('2026-05-04T09:00:00.000Z'));
  let test: TestApp;
  const user = (userId: string) => signedIn(test, userId);

  beforeAll(async () => {
    test = await startTestApp({
      clock,
      env: { BILLING_RECONCILE_MIN_AGE_SECONDS: '0', BILLING_RECONCILE_SECONDS: '0' },
    });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const order = async (buyer: SignedIn, provider: 'PAYPAL' | 'ORANGE_MONEY' = 'PAYPAL') => {
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(buyer.auth)
      .send({ provider, currency: provider === 'PAYPAL' ? 'USD' : 'XOF', planId: 'mastering-starter' })
      .expect(201);
    return intent.body as { paymentId: string; orderId?: string; qrId?: string };
  };
  /** The payment's status as the history details it (its `status` shows cancelled and expired as failed). */
  const statusOf = async (buyer: SignedIn, paymentId: string): Promise<string> => {
    const history = await request(test.url).get('/api/payments/history').set(buyer.auth).expect(200);
    const payments = history.body.payments as Array<{ paymentId?: string; id?: string; detailedStatus: string }>;
    return payments.find((p) => (p.paymentId ?? p.id) === paymentId)!.detailedStatus;
  };
  const captured = async (paymentId: string) =>
    (await eventsOf(test, ['PaymentCaptured'])).filter((e) => e.streamName === `payment-${paymentId}`);

  it('closed without approving: cancelled at once, and an approval after that charges nothing', async () => {
    const awa = await user('awa-abandons');
    const { paymentId, orderId } = await order(awa);
    const early = await request(test.url).post(`/api/payments/paypal/capture/${orderId}`).set(awa.auth).expect(409);
    expect(early.body.code).toBe('BILLING.PAYMENT_NOT_APPROVED');

    const cancelled = await request(test.url).post(`/api/payments/paypal/${orderId}/cancel`).set(awa.auth).expect(200);
    expect(cancelled.body).toEqual({ success: true, status: 'cancelled' });
    expect(await statusOf(awa, paymentId)).toBe('cancelled');
    // Cancelling again changes nothing.
    await request(test.url).post(`/api/payments/paypal/${orderId}/cancel`).set(awa.auth).expect(200);

    // The payer approves in a window left open elsewhere: PayPal's webhook and the client's capture both find the
    // payment closed, so the order is never captured.
    await request(test.url).post(`/sandbox/paypal/orders/${orderId}/approve`).send({}).expect(200);
    const late = await request(test.url).post(`/api/payments/paypal/capture/${orderId}`).set(awa.auth).expect(409);
    expect(late.body.code).toBe('BILLING.PAYMENT_CLOSED');
    expect(await captured(paymentId)).toHaveLength(0);
    await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(404);
  });

  it('asks PayPal first: an order it captured is recorded as paid, never cancelled', async () => {
    const kofi = await user('kofi-lost-answer');
    const { paymentId, orderId } = await order(kofi);
    test.app.get(PaymentSandbox).setKnobs({ webhooks: false, loseCaptureResponse: true });
    try {
      await request(test.url).post(`/sandbox/paypal/orders/${orderId}/approve`).send({}).expect(200);
      await request(test.url).post(`/api/payments/paypal/capture/${orderId}`).set(kofi.auth).expect(502);
    } finally {
      test.app.get(PaymentSandbox).setKnobs({ webhooks: true, loseCaptureResponse: false });
    }
    const refused = await request(test.url).post(`/api/payments/paypal/${orderId}/cancel`).set(kofi.auth).expect(409);
    expect(refused.body.code).toBe('BILLING.ALREADY_PAID');
    expect(await statusOf(kofi, paymentId)).toBe('paid');
    expect(await captured(paymentId)).toHaveLength(1);
  });

  it("cancels only the caller's own PayPal orders", async () => {
    const owner = await user('ama-owner');
    const other = await user('ama-other');
    const paypal = await order(owner);
    await request(test.url).post(`/api/payments/paypal/${paypal.orderId}/cancel`).set(other.auth).expect(404);
    await request(test.url).post(`/api/payments/paypal/${paypal.orderId}/cancel`).expect(401);
    // An Orange Money payment is not cancelled through the PayPal route, nor the reverse.
    const orange = await order(owner, 'ORANGE_MONEY');
    await request(test.url).post(`/api/payments/paypal/${orange.paymentId}/cancel`).set(owner.auth).expect(404);
    await request(test.url).post(`/api/payments/orange-money/${paypal.paymentId}/cancel`).set(owner.auth).expect(404);
    expect(await statusOf(owner, paypal.paymentId)).toBe('pending');
    expect(await statusOf(owner, orange.paymentId)).toBe('pending');
  });

  it('never come back to: the reconciler expires it once PayPal would, and then stops asking about it', async () => {
    const fatou = await user('fatou-leaves');
    const kept = await order(fatou);
    const forgotten = await order(fatou);
    // PayPal drops the second order altogether (its API then answers 404 for it).
    await test.app.get(ReadStore).collection('_sandbox_paypal_orders').deleteById(forgotten.orderId!);
    const reconciler = test.app.get(PaymentReconciler);

    clock.advance(3 * HOUR - 60_000);
    await reconciler.runOnce();
    expect(await statusOf(fatou, kept.paymentId)).toBe('pending');
    expect(await statusOf(fatou, forgotten.paymentId)).toBe('pending');

    clock.advance(2 * 60_000);
    await reconciler.runOnce();
    expect(await statusOf(fatou, kept.paymentId)).toBe('expired');
    expect(await statusOf(fatou, forgotten.paymentId)).toBe('expired');
    const expiredEvents = (await eventsOf(test, ['PaymentExpired'])).filter((e) =>
      [kept.paymentId, forgotten.paymentId].some((id) => e.streamName === `payment-${id}`),
    );
    expect(expiredEvents).toHaveLength(2);
    // Expired, it is no longer pending: a later pass leaves it alone, and an approval cannot be captured.
    const before = (await eventsOf(test, ['PaymentExpired'])).length;
    clock.advance(HOUR);
    expect(await reconciler.runOnce()).toBe(0);
    expect(await eventsOf(test, ['PaymentExpired'])).toHaveLength(before);
    await request(test.url).post(`/sandbox/paypal/orders/${kept.orderId}/approve`).send({}).expect(200);
    await request(test.url).post(`/api/payments/paypal/capture/${kept.orderId}`).set(fatou.auth).expect(409);
    expect(await captured(kept.paymentId)).toHaveLength(0);
  });
});
