import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app';
import { buyPackOverHttp, eventsOf, signedIn } from './billing-support';

/**
 * Renewal is a matter of each pack, and a pack paid by one order (a PayPal order, an Orange Money payment: every
 * pack sold today) does not renew: the subscription says so pack by pack, and there is no renewal of it to cancel.
 */
describe('pack renewal, pack by pack', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  it('shows every pack paid once as not renewing, and credits per service', async () => {
    const awa = await signedIn(test, 'awa-renewal');
    const mastering = await buyPackOverHttp(test.url, awa.auth, 'mastering-starter');
    const stems = await buyPackOverHttp(test.url, awa.auth, 'stems-starter');
    const current = await request(test.url).get('/api/subscriptions/current').set(awa.auth).expect(200);
    const subscription = current.body.subscription;
    expect(subscription.activePacks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: mastering.paymentId, serviceType: 'AI_MASTERING', renews: false }),
        expect.objectContaining({ id: stems.paymentId, serviceType: 'STEM_SEPARATION', renews: false }),
      ]),
    );
    expect(subscription.activePacks).toHaveLength(2);
    expect(subscription.activePacks.some((pack: { renewalCancelled: boolean }) => pack.renewalCancelled)).toBe(false);
    expect(subscription.status).toBe('active');
    expect(subscription.remaining).toEqual({
      AI_MASTERING: 5,
      STEM_SEPARATION: 5,
      AUDIO_ENHANCEMENT: 0,
      AI_MIXING: 0,
    });
  });

  it('refuses to cancel the renewal of a pack paid once (409), of no pack (400) and of another user’s (404)', async () => {
    const kofi = await signedIn(test, 'kofi-renewal');
    const ines = await signedIn(test, 'ines-renewal');
    const { paymentId } = await buyPackOverHttp(test.url, kofi.auth, 'mastering-pro');
    const before = (await eventsOf(test, ['PackRenewalCancelled'])).length;

    const once = await request(test.url)
      .post('/api/subscriptions/cancel')
      .set(kofi.auth)
      .send({ packId: paymentId })
      .expect(409);
    expect(once.body).toMatchObject({ code: 'BILLING.PACK_NOT_RENEWING' });
    const none = await request(test.url).post('/api/subscriptions/cancel').set(kofi.auth).send({}).expect(400);
    expect(none.body.fields).toEqual({ packId: 'BILLING.PACK_REQUIRED' });
    const unknown = await request(test.url)
      .post('/api/subscriptions/cancel')
      .set(kofi.auth)
      .send({ packId: 'not-a-pack' })
      .expect(404);
    expect(unknown.body.code).toBe('BILLING.PACK_NOT_FOUND');
    const other = await request(test.url)
      .post('/api/subscriptions/cancel')
      .set(ines.auth)
      .send({ packId: paymentId })
      .expect(404);
    expect(other.body.code).toBe('BILLING.PACK_NOT_FOUND');

    // Nothing recorded: the pack still reads as it was, paid once, not "ending" for a renewal it never had.
    expect(await eventsOf(test, ['PackRenewalCancelled'])).toHaveLength(before);
    const current = await request(test.url).get('/api/subscriptions/current').set(kofi.auth).expect(200);
    expect(current.body.subscription.activePacks).toEqual([
      expect.objectContaining({ id: paymentId, renews: false, renewalCancelled: false }),
    ]);
  });
});
