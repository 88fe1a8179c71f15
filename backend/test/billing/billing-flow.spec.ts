import { PaymentReconciler, PaymentSandbox } from '@kora/billing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsOf, seedTrack, signedIn } from './billing-support';

describe('billing over HTTP through the built-in sandbox', () => {
  let test: TestApp;
  let awa: { auth: { Authorization: string }; userId: string };
  let kofi: { auth: { Authorization: string }; userId: string };
  const user = (userId: string) => signedIn(test, userId);
  const sandbox = () => test.app.get(PaymentSandbox);

  beforeAll(async () => {
    test = await startTestApp({ env: { BILLING_RECONCILE_MIN_AGE_SECONDS: '0', BILLING_RECONCILE_SECONDS: '0' } });
    awa = await user('awa-billing');
    kofi = await user('kofi-billing');
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const buyPack = async (who: typeof awa, planId = 'mastering-starter') => {
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(who.auth)
      .send({ provider: 'PAYPAL', currency: 'USD', planId, billingCycle: 'MONTHLY', paymentType: 'PACK' })
      .expect(201);
    await request(test.url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
    const capture = await request(test.url)
      .post(`/api/payments/paypal/capture/${intent.body.orderId}`)
      .set(who.auth)
      .expect(200);
    expect(capture.body.success).toBe(true);
    return intent.body as { paymentId: string; orderId: string };
  };

  it('tells the client both providers are the sandbox (checkout in a popup), signed in only', async () => {
    const config = await request(test.url).get('/api/payments/config').set(awa.auth).expect(200);
    expect(config.body).toEqual({ paypal: { mode: 'sandbox' }, orangeMoney: { mode: 'sandbox' } });
    await request(test.url).get('/api/payments/config').expect(401);
  });

  it('lists packs per service sorted by priceXOF, and the per-track prices', async () => {
    const plans = await request(test.url).get('/api/plans').set(awa.auth).expect(200);
    const xof = plans.body.plans.map((plan: { priceXOF: number }) => plan.priceXOF);
    expect(xof).toEqual([...xof].sort((a, b) => a - b));
    const starter = plans.body.plans.find((plan: { id: string }) => plan.id === 'mastering-starter');
    expect(starter).toMatchObject({
      priceUSD: 19.99,
      priceEUR: 18.99,
      priceXOF: 12500,
      masteringLimit: 5,
      serviceType: 'AI_MASTERING',
    });
    expect(starter.yearly.priceUSD).toBe(191.9); // 12 x 19.99 - 20 %
    // The selling points in each interface language; `features` stays the English list (the spec's Plan).
    expect(starter.features[0]).toBe('5 masters a month');
    expect(starter.i18n.en.features).toEqual(starter.features);
    expect(starter.i18n.fr.features).toEqual([
      '5 masters par mois',
      'Aperçus illimités',
      'Crédits valables toute la période',
    ]);
    const payngo = await request(test.url).get('/api/plans/payngo').set(awa.auth).expect(200);
    expect(
      payngo.body.plans.map((plan: { serviceType: string; priceUSD: number }) => [plan.serviceType, plan.priceUSD]),
    ).toEqual(
      expect.arrayContaining([
        ['AI_MASTERING', 4.99],
        ['STEM_SEPARATION', 6.99],
        ['AUDIO_ENHANCEMENT', 5.99],
        ['AI_MIXING', 7.99],
      ]),
    );
    expect(
      payngo.body.plans.every(
        (plan: { name: string; purchasable: boolean }) => plan.name === 'Pay Per Track' && !plan.purchasable,
      ),
    ).toBe(true);
  });

  it('PayPal: buys a pack, spends a credit on an unlock (MASTER_READY), and shows both histories', async () => {
    await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(404);
    const { paymentId, orderId } = await buyPack(awa);
    // A second capture call (the client retrying) answers success and grants nothing more.
    const replay = await request(test.url).post(`/api/payments/paypal/capture/${orderId}`).set(awa.auth).expect(200);
    expect(replay.body).toMatchObject({ success: true, status: 'paid' });
    const current = await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(200);
    expect(current.body.subscription).toMatchObject({
      totalCredits: 5,
      creditsUsed: 0,
      remaining: { AI_MASTERING: 5, AI_MIXING: 0 },
    });
    // A mastering pack's plan promises unlimited previews (its catalogue entry): the header says so.
    expect(current.body.subscription.plan).toMatchObject({ serviceType: 'AI_MASTERING', unlimitedPreview: true });

    const trackId = await seedTrack(test, awa.userId, 'AI_MASTERING', 'my <b>song</b>.wav');
    const unlocked = await request(test.url)
      .post(`/api/audio/track/${trackId}/master`)
      .set(awa.auth)
      .send({ credit: true })
      .expect(200);
    expect(unlocked.body).toMatchObject({ success: true, status: 'MASTER_READY', unlocked: true, creditsUsed: 1 });
    const again = await request(test.url)
      .post(`/api/audio/track/${trackId}/master`)
      .set(awa.auth)
      .send({ credit: true })
      .expect(200);
    expect(again.body).toMatchObject({ alreadyUnlocked: true, creditsUsed: 0 });
    expect((await eventsOf(test, ['MasterReady'])).filter((e) => e.streamName === `track-${trackId}`)).toHaveLength(1);

    const after = await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(200);
    expect(after.body.subscription).toMatchObject({ creditsUsed: 1, remaining: { AI_MASTERING: 4 } });
    const usage = await request(test.url).get('/api/subscriptions/usage-history').set(awa.auth).expect(200);
    expect(usage.body.history).toEqual([
      expect.objectContaining({
        trackId,
        trackName: 'my song.wav',
        serviceType: 'AI_MASTERING',
        trackDuration: 187,
        creditsUsed: 1,
      }),
    ]);
    const history = await request(test.url).get('/api/payments/history?page=1&limit=100').set(awa.auth).expect(200);
    expect(history.body.payments[0]).toMatchObject({
      id: paymentId,
      amount: 19.99,
      currency: 'USD',
      status: 'paid',
      payment_method: 'paypal',
      planName: 'Starter',
    });
    expect(history.body.pagination.total).toBe(1);
    const searched = await request(test.url).get('/api/payments/history?search=PAYPAL').set(awa.auth).expect(200);
    expect(searched.body.payments).toHaveLength(1);
    const none = await request(test.url).get('/api/payments/history?search=orange').set(awa.auth).expect(200);
    expect(none.body.payments).toHaveLength(0);

    // Captured once, granted once, whatever was replayed (the approval webhook captured it, then the client did).
    expect(
      (await eventsOf(test, ['PaymentCaptured'])).filter((e) => e.streamName === `payment-${paymentId}`),
    ).toHaveLength(1);
    expect(
      (await eventsOf(test, ['PackPurchased'])).filter(
        (e) => (e.data as { paymentId: string }).paymentId === paymentId,
      ),
    ).toHaveLength(1);
  });

  it('Orange Money: pays one track by QR code in XOF; a callback sent twice grants once', async () => {
    const trackId = await seedTrack(test, awa.userId, 'STEM_SEPARATION');
    sandbox().setKnobs({ duplicateCallbacks: true });
    try {
      const intent = await request(test.url)
        .post('/api/payments/createIntent')
        .set(awa.auth)
        .send({ provider: 'ORANGE_MONEY', currency: 'XOF', trackId, service: 'STEM_SEPARATION', amount: 4500 })
        .expect(201);
      expect(intent.body).toMatchObject({
        provider: 'ORANGE_MONEY',
        validity: 300,
        amount: 4500,
        currency: 'XOF',
        merchantCode: 'KORA01',
      });
      expect(Buffer.from(intent.body.qrCode, 'base64').subarray(1, 4).toString()).toBe('PNG');
      expect(Object.keys(intent.body.deepLinks)).toEqual(['OM', 'MAXIT']);
      const pending = await request(test.url)
        .post('/api/payments/status')
        .set(awa.auth)
        .send({ paymentIntentId: intent.body.paymentId })
        .expect(200);
      expect(pending.body.status).toBe('PENDING');

      await request(test.url).post(`/sandbox/orange-money/payments/${intent.body.paymentId}/pay`).send({}).expect(200);
      const status = await request(test.url)
        .post('/api/payments/status')
        .set(awa.auth)
        .send({ paymentIntentId: intent.body.paymentId })
        .expect(200);
      expect(status.body.status).toBe('COMPLETED');
      const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(awa.auth).expect(200);
      expect(track.body).toMatchObject({ unlocked: true, status: 'MASTER_READY' });
      const unlock = await request(test.url)
        .post(`/api/audio/track/${trackId}/master`)
        .set(awa.auth)
        .send({ paymentId: intent.body.paymentId })
        .expect(200);
      expect(unlock.body.success).toBe(true);
      const stream = `payment-${intent.body.paymentId}`;
      expect((await eventsOf(test, ['PaymentCaptured'])).filter((e) => e.streamName === stream)).toHaveLength(1);
      expect((await eventsOf(test, ['TrackUnlocked'])).filter((e) => e.streamName === `track-${trackId}`)).toHaveLength(
        1,
      );
      // A forged callback does not count.
      await request(test.url)
        .post('/api/payments/orange-money/callback')
        .send({ reference: intent.body.paymentId, status: 'SUCCESS', amount: { unit: 'XOF', value: 4500 } })
        .expect(401);
    } finally {
      sandbox().setKnobs({ duplicateCallbacks: false });
    }
  });

  it('refuses what does not match the catalogue (400) and records nothing', async () => {
    const trackId = await seedTrack(test, awa.userId);
    const before = (await eventsOf(test, ['PaymentIntentCreated'])).length;
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ provider: 'ORANGE_MONEY', currency: 'USD', trackId }, 'BILLING.CURRENCY_NOT_SUPPORTED'],
      [{ provider: 'PAYPAL', currency: 'XOF', trackId }, 'BILLING.CURRENCY_NOT_SUPPORTED'],
      [{ provider: 'PAYPAL', currency: 'USD', trackId, amount: 0.99 }, 'BILLING.AMOUNT_MISMATCH'],
      [{ provider: 'PAYPAL', currency: 'USD', trackId, service: 'STEM_SEPARATION' }, 'BILLING.SERVICE_MISMATCH'],
      [{ provider: 'PAYPAL', currency: 'EUR', planId: 'no-such-plan', paymentType: 'PACK' }, 'BILLING.UNKNOWN_PLAN'],
      [
        { provider: 'PAYPAL', currency: 'EUR', planId: 'payngo-mastering', paymentType: 'PACK' },
        'BILLING.PLAN_NOT_PURCHASABLE',
      ],
      [{ provider: 'PAYPAL', currency: 'EUR', planId: 'stems-pro', service: 'AI_MASTERING' }, 'BILLING.PLAN_MISMATCH'],
      [{ provider: 'PAYPAL', currency: 'EUR', planId: 'stems-pro', amount: 1 }, 'BILLING.AMOUNT_MISMATCH'],
      [{ provider: 'BITCOIN', currency: 'USD', trackId }, 'VALIDATION.FAILED'],
      [{ provider: 'PAYPAL', currency: 'GBP', trackId }, 'VALIDATION.FAILED'],
    ];
    for (const [body, code] of refusals) {
      const answer = await request(test.url).post('/api/payments/createIntent').set(awa.auth).send(body);
      expect({ [JSON.stringify(body)]: [answer.status, answer.body.code] }).toEqual({
        [JSON.stringify(body)]: [400, code],
      });
    }
    expect((await eventsOf(test, ['PaymentIntentCreated'])).length).toBe(before);
  });

  it('answers 404 for another user’s payment and track', async () => {
    const trackId = await seedTrack(test, awa.userId);
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(awa.auth)
      .send({ provider: 'PAYPAL', currency: 'EUR', trackId })
      .expect(201);
    expect(intent.body.amount).toBe(4.59);
    await request(test.url)
      .post('/api/payments/status')
      .set(kofi.auth)
      .send({ paymentIntentId: intent.body.paymentId })
      .expect(404);
    await request(test.url).post(`/api/payments/paypal/capture/${intent.body.orderId}`).set(kofi.auth).expect(404);
    await request(test.url)
      .post(`/api/payments/orange-money/${intent.body.paymentId}/cancel`)
      .set(kofi.auth)
      .expect(404);
    await request(test.url)
      .post(`/api/audio/track/${trackId}/master`)
      .set(kofi.auth)
      .send({ credit: true })
      .expect(404);
    await request(test.url)
      .post('/api/payments/createIntent')
      .set(kofi.auth)
      .send({ provider: 'PAYPAL', currency: 'EUR', trackId })
      .expect(404);
    const history = await request(test.url).get('/api/payments/history').set(kofi.auth).expect(200);
    expect(history.body.payments).toEqual([]);
  });

  it('50 concurrent unlocks against a balance of 3 credits: exactly 3 succeed', async () => {
    const buyer = await user('concurrent-buyer');
    await buyPack(buyer); // 5 credits
    for (let i = 0; i < 2; i += 1) {
      const trackId = await seedTrack(test, buyer.userId);
      await request(test.url)
        .post(`/api/audio/track/${trackId}/master`)
        .set(buyer.auth)
        .send({ credit: true })
        .expect(200);
    }
    const tracks = await Promise.all(Array.from({ length: 50 }, () => seedTrack(test, buyer.userId)));
    const answers = await Promise.all(
      tracks.map((trackId) =>
        request(test.url).post(`/api/audio/track/${trackId}/master`).set(buyer.auth).send({ credit: true }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(
      answers
        .filter((a) => a.status !== 200)
        .every((a) => a.status === 402 && a.body.code === 'BILLING.INSUFFICIENT_CREDITS'),
    ).toBe(true);
    const spent = (await eventsOf(test, ['CreditSpent'])).filter((e) => e.streamName === `credits-${buyer.userId}`);
    expect(spent).toHaveLength(5);
    expect(spent.map((e) => (e.data as { balance: number }).balance)).toEqual([4, 3, 2, 1, 0]);
    const current = await request(test.url).get('/api/subscriptions/current').set(buyer.auth).expect(200);
    expect(current.body.subscription.remaining.AI_MASTERING).toBe(0);
  }, 60_000);

  it('a card declined at capture: nothing granted, the buyer picks another card in the same checkout', async () => {
    const intent = await request(test.url)
      .post('/api/subscriptions/subscribe')
      .set(kofi.auth)
      .send({ provider: 'PAYPAL', currency: 'EUR', planId: 'stems-starter' })
      .expect(201);
    sandbox().setKnobs({ webhooks: false });
    try {
      await request(test.url)
        .post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`)
        .send({ outcome: 'decline' })
        .expect(200);
      const capture = await request(test.url)
        .post(`/api/payments/paypal/capture/${intent.body.orderId}`)
        .set(kofi.auth)
        .expect(402);
      expect(capture.body).toMatchObject({
        code: 'BILLING.PAYMENT_DECLINED',
        details: { issue: 'INSTRUMENT_DECLINED', restart: true },
      });
      await request(test.url).get('/api/subscriptions/current').set(kofi.auth).expect(404);
      const history = await request(test.url).get('/api/payments/history').set(kofi.auth).expect(200);
      expect(history.body.payments[0]).toMatchObject({ status: 'pending' });
      // PayPal's restart: the same order approved again with another card is captured.
      await request(test.url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
      await request(test.url).post(`/api/payments/paypal/capture/${intent.body.orderId}`).set(kofi.auth).expect(200);
    } finally {
      sandbox().setKnobs({ webhooks: true });
    }
    const current = await request(test.url).get('/api/subscriptions/current').set(kofi.auth).expect(200);
    expect(current.body.subscription.remaining.STEM_SEPARATION).toBeGreaterThan(0);
    // A stems pack promises no unlimited previews: the header shows no such marker.
    expect(current.body.subscription.plan.unlimitedPreview).toBe(false);
  });

  it('the provider captured but its answer was lost: the reconciler records and grants once', async () => {
    const buyer = await user('lost-answer');
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(buyer.auth)
      .send({ provider: 'PAYPAL', currency: 'USD', planId: 'enhancement-starter' })
      .expect(201);
    sandbox().setKnobs({ webhooks: false, loseCaptureResponse: true });
    try {
      await request(test.url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
      const capture = await request(test.url)
        .post(`/api/payments/paypal/capture/${intent.body.orderId}`)
        .set(buyer.auth)
        .expect(502);
      expect(capture.body.code).toBe('BILLING.PROVIDER_UNAVAILABLE');
    } finally {
      sandbox().setKnobs({ webhooks: true, loseCaptureResponse: false });
    }
    expect(
      (await eventsOf(test, ['PaymentCaptured'])).filter((e) => e.streamName === `payment-${intent.body.paymentId}`),
    ).toHaveLength(0);
    // The reconciler (run at start and on a schedule; here by hand, twice) asks PayPal and grants once.
    const reconciler = test.app.get(PaymentReconciler);
    const doc = await request(test.url).get('/api/payments/history').set(buyer.auth).expect(200);
    expect(doc.body.payments[0].status).toBe('pending');
    await reconcileNow(reconciler);
    await reconcileNow(reconciler);
    const current = await request(test.url).get('/api/subscriptions/current').set(buyer.auth).expect(200);
    expect(current.body.subscription.remaining.AUDIO_ENHANCEMENT).toBe(5);
    expect(
      (await eventsOf(test, ['PaymentCaptured'])).filter((e) => e.streamName === `payment-${intent.body.paymentId}`),
    ).toHaveLength(1);
    expect(
      (await eventsOf(test, ['PackPurchased'])).filter(
        (e) => (e.data as { paymentId: string }).paymentId === intent.body.paymentId,
      ),
    ).toHaveLength(1);
  });
});

/** The reconciler only looks at payments older than BILLING_RECONCILE_MIN_AGE_SECONDS; the test app uses 0 for it. */
async function reconcileNow(reconciler: PaymentReconciler): Promise<void> {
  await reconciler.runOnce();
}
