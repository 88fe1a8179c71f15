import { CreditExpiry } from '@kora/billing';
import { EventStore, ReadStore } from '@kora/kernel';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAudit } from '../../src/cli/audit-run';
import { DAY, TestClock } from '../support/accounts';
import { tempDir } from '../support/temp';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  BILLING_CLI,
  buyPackOverHttp,
  eventsOf,
  orangeMoneyTrackIntent,
  runCli,
  seedTrack,
  signedIn,
} from './billing-support';

async function auditIsClean(test: TestApp) {
  const result = await runAudit(test.app.get(EventStore), test.app.get(ReadStore), {});
  expect(result.report.violations).toEqual([]);
  expect(result.differences).toEqual([]);
  return result.report;
}

describe('npm run billing -- refund <paymentId>', () => {
  const dir = tempDir('kora-refund-');
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp({ dataDir: dir.path });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
    dir.cleanup();
  });

  it('a pack: records the refund, takes back the unspent credits, keeps what they unlocked; twice changes nothing', async () => {
    const awa = await signedIn(test, 'awa-refund');
    const { paymentId } = await buyPackOverHttp(test.url, awa.auth);
    const tracks = [await seedTrack(test, awa.userId), await seedTrack(test, awa.userId)];
    for (const trackId of tracks) {
      await request(test.url)
        .post(`/api/audio/track/${trackId}/master`)
        .set(awa.auth)
        .send({ credit: true })
        .expect(200);
    }
    const first = await runCli(BILLING_CLI, dir.path, ['refund', paymentId, '--reason', 'customer request']);
    expect({ [first.stderr]: first.code }).toEqual({ [first.stderr]: 0 });
    expect(first.stdout).toContain(
      `Refunded: payment ${paymentId} of awa-refund, 19.99 USD; 3 unspent credit(s) taken back.`,
    );
    const again = await runCli(BILLING_CLI, dir.path, ['refund', paymentId]);
    expect(again.stdout).toContain('Already refunded');
    expect(again.stdout).toContain('0 unspent credit(s) taken back');

    await test.app
      .get((await import('@kora/kernel')).ProjectionRunner)
      .waitFor(await test.app.get(EventStore).headPosition());
    const revoked = (await eventsOf(test, ['CreditsRevoked'])).filter((e) => e.streamName === `credits-${awa.userId}`);
    expect(revoked.map((e) => e.data)).toEqual([
      { packId: paymentId, paymentId, service: 'AI_MASTERING', credits: 3, balance: 0 },
    ]);
    const refunded = (await eventsOf(test, ['PaymentRefunded'])).filter((e) => e.streamName === `payment-${paymentId}`);
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.data).toMatchObject({ amount: { amount: 1999, currency: 'USD' }, reason: 'customer request' });
    // The history says refunded; the credits are gone; the two unlocked tracks stay unlocked.
    const history = await request(test.url).get('/api/payments/history').set(awa.auth).expect(200);
    expect(history.body.payments[0]).toMatchObject({ id: paymentId, status: 'refunded' });
    const broke = await request(test.url)
      .post(`/api/audio/track/${await seedTrack(test, awa.userId)}/master`)
      .set(awa.auth)
      .send({ credit: true });
    expect(broke.status).toBe(402);
    for (const trackId of tracks) {
      const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(awa.auth).expect(200);
      expect(track.body.unlocked).toBe(true);
    }
  }, 60_000);

  it('a single track: refunded, the track stays unlocked; revenue nets out; pending and unknown payments are refused', async () => {
    const kofi = await signedIn(test, 'kofi-refund');
    const trackId = await seedTrack(test, kofi.userId, 'AUDIO_ENHANCEMENT');
    const intent = await orangeMoneyTrackIntent(test.url, kofi.auth, trackId);
    await request(test.url).post(`/sandbox/orange-money/payments/${intent.body.paymentId}/pay`).send({}).expect(200);
    await request(test.url)
      .post('/api/payments/status')
      .set(kofi.auth)
      .send({ paymentIntentId: intent.body.paymentId })
      .expect(200);
    const refunded = await runCli(BILLING_CLI, dir.path, ['refund', intent.body.paymentId, '--refund-id', 'OM-R-1']);
    expect({ [refunded.stderr]: refunded.code }).toEqual({ [refunded.stderr]: 0 });
    expect(refunded.stdout).toContain(`the result ${trackId} stays unlocked`);
    const track = await request(test.url).get(`/api/audio/track/${trackId}`).set(kofi.auth).expect(200);
    expect(track.body.unlocked).toBe(true);

    const pending = await request(test.url)
      .post('/api/payments/createIntent')
      .set(kofi.auth)
      .send({ provider: 'PAYPAL', currency: 'EUR', planId: 'stems-starter' })
      .expect(201);
    const refused = await runCli(BILLING_CLI, dir.path, ['refund', pending.body.paymentId]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('BILLING.NOT_REFUNDABLE');
    const unknown = await runCli(BILLING_CLI, dir.path, ['refund', 'no-such-payment']);
    expect(unknown.code).toBe(4);

    await test.app
      .get((await import('@kora/kernel')).ProjectionRunner)
      .waitFor(await test.app.get(EventStore).headPosition());
    const report = await auditIsClean(test);
    expect(report.revenue).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ currency: 'XOF', provider: 'ORANGE_MONEY', captured: 3500, refunded: 3500, net: 0 }),
        expect.objectContaining({ currency: 'USD', provider: 'PAYPAL', captured: 1999, refunded: 1999, net: 0 }),
      ]),
    );
  }, 60_000);
});

describe('credit expiry at a pack’s end date', () => {
  it('a pack past its end, not expired yet, is not in the balance a spend reports', async () => {
    const dir = tempDir('kora-unswept-');
    const clock = new TestClock(new Date('2026-03-01T10:00:00.000Z'));
    const test = await startTestApp({ dataDir: dir.path, clock, env: { BILLING_EXPIRY_SECONDS: '0' } });
    try {
      const ada = await signedIn(test, 'ada-unswept');
      await buyPackOverHttp(test.url, ada.auth);
      clock.advance(32 * DAY); // past the monthly pack's end; no expiry pass has run
      await buyPackOverHttp(test.url, ada.auth);
      const trackId = await seedTrack(test, ada.userId);
      const unlocked = await request(test.url)
        .post(`/api/audio/track/${trackId}/master`)
        .set(ada.auth)
        .send({ credit: true })
        .expect(200);
      // The second pack's five credits, one spent: the first pack's five are past their end date.
      expect(unlocked.body).toMatchObject({ creditsUsed: 1, creditsRemaining: 4 });
      const granted = (await eventsOf(test, ['PackPurchased'])).filter((e) => e.streamName === `credits-${ada.userId}`);
      expect(granted.map((e) => (e.data as { balance: number }).balance)).toEqual([5, 5]);
      await test.app
        .get((await import('@kora/kernel')).ProjectionRunner)
        .waitFor(await test.app.get(EventStore).headPosition());
      await auditIsClean(test);
    } finally {
      await test.close();
      dir.cleanup();
    }
  }, 60_000);

  it('appends CreditsExpired once, by the injected clock, and a restarted server expires what fell due', async () => {
    const dir = tempDir('kora-expiry-');
    const clock = new TestClock(new Date('2026-03-01T10:00:00.000Z'));
    let test = await startTestApp({ dataDir: dir.path, clock, env: { BILLING_EXPIRY_SECONDS: '0' } });
    try {
      const awa = await signedIn(test, 'awa-expiry');
      const { paymentId } = await buyPackOverHttp(test.url, awa.auth);
      const trackId = await seedTrack(test, awa.userId);
      await request(test.url)
        .post(`/api/audio/track/${trackId}/master`)
        .set(awa.auth)
        .send({ credit: true })
        .expect(200);
      const expiry = test.app.get(CreditExpiry);
      clock.advance(29 * DAY);
      expect(await expiry.runOnce()).toBe(0); // not due yet
      clock.advance(3 * DAY); // past the monthly pack's end
      expect(await expiry.runOnce()).toBe(1);
      expect(await expiry.runOnce()).toBe(0);
      const expired = (await eventsOf(test, ['CreditsExpired'])).filter(
        (e) => e.streamName === `credits-${awa.userId}`,
      );
      expect(expired.map((e) => e.data)).toEqual([
        { packId: paymentId, service: 'AI_MASTERING', credits: 4, balance: 0 },
      ]);
      await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(404);
      await auditIsClean(test);

      // A second account's pack falls due while the server is down: the next start expires it.
      const kofi = await signedIn(test, 'kofi-expiry');
      await buyPackOverHttp(test.url, kofi.auth, 'stems-starter');
      await test.close();
      clock.advance(40 * DAY);
      test = await startTestApp({ dataDir: dir.path, clock, env: { BILLING_EXPIRY_SECONDS: '0' } });
      const deadline = Date.now() + 10_000;
      let found: Array<{ data: unknown }> = [];
      while (found.length === 0 && Date.now() < deadline) {
        found = (await eventsOf(test, ['CreditsExpired'])).filter((e) => e.streamName === `credits-${kofi.userId}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(found.map((e) => e.data)).toEqual([
        expect.objectContaining({ service: 'STEM_SEPARATION', credits: 5, balance: 0 }),
      ]);
      expect(await test.app.get(CreditExpiry).runOnce()).toBe(0);
      expect(await eventsOf(test, ['CreditsExpired'])).toHaveLength(2);
      await test.app
        .get((await import('@kora/kernel')).ProjectionRunner)
        .waitFor(await test.app.get(EventStore).headPosition());
      await auditIsClean(test);
    } finally {
      await test.close();
      dir.cleanup();
    }
  }, 60_000);
});
