import { EventStore, ReadStore } from '@kora/kernel';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { runAudit } from '../../src/cli/audit-run';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsOf, seedTrack } from './billing-support';

const CALLBACK_PATH = '/api/payments/orange-money/callback';

describe('an Orange Money pack bought over HTTP through the built-in sandbox', () => {
  let test: TestApp;
  let awa: { auth: { Authorization: string }; userId: string };

  beforeAll(async () => {
    test = await startTestApp();
    awa = { userId: 'awa-om-pack', auth: { Authorization: `Bearer ${await test.token('awa-om-pack')}` } };
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  it('in XOF: the customer confirms, the signed callback pays it, the credits are granted once (replays too)', async () => {
    await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(404);
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(awa.auth)
      .send({ provider: 'ORANGE_MONEY', currency: 'XOF', planId: 'mastering-pro', billingCycle: 'MONTHLY' })
      .expect(201);
    expect(intent.body).toMatchObject({
      provider: 'ORANGE_MONEY',
      amount: 37500,
      currency: 'XOF',
      merchantCode: 'KORA01',
      validity: 300,
      status: 'pending',
    });
    const paymentId = intent.body.paymentId as string;
    const stream = `payment-${paymentId}`;
    const pending = await request(test.url).get('/api/payments/history').set(awa.auth).expect(200);
    expect(pending.body.payments).toEqual([expect.objectContaining({ id: paymentId, status: 'pending' })]);

    // The customer confirms in the app; the sandbox sends its signed callback (recorded here, to be replayed).
    const callbacks: Array<{ headers: Record<string, string>; body: string }> = [];
    const realFetch = globalThis.fetch;
    const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input).endsWith(CALLBACK_PATH)) {
        callbacks.push({ headers: init!.headers as Record<string, string>, body: String(init!.body) });
      }
      return realFetch(input, init);
    });
    try {
      await request(test.url).post(`/sandbox/orange-money/payments/${paymentId}/pay`).send({}).expect(200);
    } finally {
      spy.mockRestore();
    }
    expect(callbacks).toHaveLength(1);
    expect(JSON.parse(callbacks[0]!.body)).toMatchObject({ reference: paymentId, status: 'SUCCESS' });
    // The callback alone paid it: captured and granted before anyone asked for the status.
    expect((await eventsOf(test, ['PaymentCaptured'])).filter((e) => e.streamName === stream)).toHaveLength(1);

    const status = await request(test.url)
      .post('/api/payments/status')
      .set(awa.auth)
      .send({ paymentIntentId: paymentId })
      .expect(200);
    expect(status.body).toMatchObject({ status: 'COMPLETED', paymentStatus: 'paid', paymentId });

    // The same signed callback delivered again, twice, and the customer confirming again: nothing more.
    for (let i = 0; i < 2; i += 1) {
      await request(test.url)
        .post(CALLBACK_PATH)
        .set(callbacks[0]!.headers)
        .send(callbacks[0]!.body)
        .expect(200, { received: true });
    }
    await request(test.url).post(`/sandbox/orange-money/payments/${paymentId}/pay`).send({}).expect(200);
    // A callback whose signature does not match its body counts for nothing.
    const forged = { ...JSON.parse(callbacks[0]!.body), amount: { unit: 'XOF', value: 1 } };
    await request(test.url).post(CALLBACK_PATH).set(callbacks[0]!.headers).send(forged).expect(401);

    expect((await eventsOf(test, ['PaymentCaptured'])).filter((e) => e.streamName === stream)).toHaveLength(1);
    const grants = (await eventsOf(test, ['PackPurchased'])).filter(
      (e) => (e.data as { paymentId: string }).paymentId === paymentId,
    );
    expect(grants).toHaveLength(1);
    expect(grants[0]!.streamName).toBe(`credits-${awa.userId}`);

    const current = await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(200);
    expect(current.body.subscription).toMatchObject({
      plan: { id: 'mastering-pro', name: 'Pro', serviceType: 'AI_MASTERING', billingCycle: 'MONTHLY' },
      totalCredits: 20,
      creditsUsed: 0,
      remaining: { AI_MASTERING: 20, STEM_SEPARATION: 0, AUDIO_ENHANCEMENT: 0, AI_MIXING: 0 },
      activePacks: [
        expect.objectContaining({
          planId: 'mastering-pro',
          planName: 'Pro',
          serviceType: 'AI_MASTERING',
          limit: 20,
          used: 0,
          remaining: 20,
        }),
      ],
    });
    expect(current.body.masteringCounts).toEqual({ total: 20, used: 0, remaining: 20 });

    // A credit of the pack spent on an unlock shows in the usage history.
    const trackId = await seedTrack(test, awa.userId, 'AI_MASTERING', 'Sunu <i>gaal</i>.wav');
    await request(test.url).post(`/api/audio/track/${trackId}/master`).set(awa.auth).send({ credit: true }).expect(200);
    const usage = await request(test.url).get('/api/subscriptions/usage-history').set(awa.auth).expect(200);
    expect(usage.body.history).toEqual([
      expect.objectContaining({
        trackId,
        trackName: 'Sunu gaal.wav',
        serviceType: 'AI_MASTERING',
        trackDuration: 187,
        creditsUsed: 1,
      }),
    ]);
    const after = await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(200);
    expect(after.body.subscription).toMatchObject({ creditsUsed: 1, remaining: { AI_MASTERING: 19 } });

    // The payment history: the pack, paid, in XOF by mobile money; found by plan, method and date.
    const history = await request(test.url).get('/api/payments/history?page=1&limit=100').set(awa.auth).expect(200);
    expect(history.body.payments).toEqual([
      expect.objectContaining({
        id: paymentId,
        amount: 37500,
        currency: 'XOF',
        status: 'paid',
        payment_method: 'mobile money',
        provider: 'ORANGE_MONEY',
        planName: 'Pro',
        planId: 'mastering-pro',
        serviceType: 'AI_MASTERING',
        type: 'subscription',
        billingCycle: 'MONTHLY',
        credits: 20,
      }),
    ]);
    expect(history.body.pagination).toMatchObject({ total: 1, page: 1, limit: 100 });
    const day = (history.body.payments[0].date as string).slice(0, 10);
    for (const search of ['orange', 'Mobile Money', 'pro', day]) {
      const found = await request(test.url).get('/api/payments/history').query({ search }).set(awa.auth).expect(200);
      expect({ [search]: found.body.payments.map((p: { id: string }) => p.id) }).toEqual({ [search]: [paymentId] });
    }
    const none = await request(test.url).get('/api/payments/history?search=paypal').set(awa.auth).expect(200);
    expect(none.body.payments).toEqual([]);

    // What `npm run audit` checks, over this log: captured once, granted once, read models equal to the replay.
    const audit = await runAudit(test.app.get(EventStore), test.app.get(ReadStore), {});
    expect(audit.report.violations).toEqual([]);
    expect(audit.differences).toEqual([]);
  });

  it('refused in the app: the payment fails, nothing is granted, the history says failed', async () => {
    const kofi = { userId: 'kofi-om-pack', auth: { Authorization: `Bearer ${await test.token('kofi-om-pack')}` } };
    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(kofi.auth)
      .send({ provider: 'ORANGE_MONEY', currency: 'XOF', planId: 'stems-starter', paymentType: 'PACK' })
      .expect(201);
    expect(intent.body.amount).toBe(17500);
    // The phone's page, as a browser submits its form: back to the payment's page, which says how it ended.
    const phonePage = `/sandbox/orange-money/pay/${intent.body.paymentId}`;
    const refused = await request(test.url)
      .post(`/sandbox/orange-money/payments/${intent.body.paymentId}/pay`)
      .type('form')
      .send({ redirect: '1', outcome: 'decline' })
      .expect(303);
    expect(refused.headers.location).toBe(phonePage);
    const ended = await request(test.url)
      .get(phonePage)
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(ended.text).toContain('Payment refused: your balance is too low. Nothing was charged.');
    const status = await request(test.url)
      .post('/api/payments/status')
      .set(kofi.auth)
      .send({ paymentIntentId: intent.body.paymentId })
      .expect(200);
    // The provider's reason reaches the payer, who can act on it (top up), not only "failed".
    expect(status.body).toMatchObject({ status: 'FAILED', reason: 'INSUFFICIENT_BALANCE' });
    await request(test.url).get('/api/subscriptions/current').set(kofi.auth).expect(404);
    const history = await request(test.url).get('/api/payments/history').set(kofi.auth).expect(200);
    expect(history.body.payments).toEqual([
      expect.objectContaining({ id: intent.body.paymentId, status: 'failed', currency: 'XOF' }),
    ]);
    expect(
      (await eventsOf(test, ['PackPurchased'])).filter(
        (e) => (e.data as { paymentId: string }).paymentId === intent.body.paymentId,
      ),
    ).toEqual([]);
  });
});
