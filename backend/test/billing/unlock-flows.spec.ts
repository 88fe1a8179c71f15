import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registeredUser, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { tempDir } from '../support/temp';
import { startTestApp, type TestApp } from '../support/test-app';
import { buyPackOverHttp } from './billing-support';

/**
 * Unlocks with real audio and a real mix (the engine at work, not seeded results), the billing notifications in both
 * languages, and the billing socket messages reaching their owner only.
 */
describe('unlocks over HTTP with real results, notifications and sockets', () => {
  let test: TestApp;
  let awa: TestUser;
  let kofi: TestUser;
  const media = tempDir('kora-media-');
  const files = makeMedia(media.path);
  const sockets: Socket[] = [];
  const seen: Record<string, Array<{ channel: string; payload: Record<string, unknown> }>> = { awa: [], kofi: [] };

  async function listen(name: string, user: TestUser): Promise<void> {
    const socket = io(test.url, { auth: { token: user.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    for (const channel of ['credits.changed', 'payment.status']) {
      socket.on(channel, (payload: Record<string, unknown>) => seen[name]!.push({ channel, payload }));
    }
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
  }

  beforeAll(async () => {
    test = await startTestApp({ realAuth: true });
    awa = await registeredUser(test, { email: 'awa@example.sn', language: 'fr' });
    kofi = await registeredUser(test, { email: 'kofi@example.tg', language: 'en' });
    await listen('awa', awa);
    await listen('kofi', kofi);
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await test.close();
    media.cleanup();
  });

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out at ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('the master streams after a credit unlock of a real mastering result, and not before', async () => {
    const uploaded = await request(test.url)
      .post('/api/audio/upload')
      .set(awa.auth)
      .field('service', 'AI_MASTERING')
      .attach('file', files.music(8))
      .expect(201);
    const id = uploaded.body.id as string;
    const status = await until(
      async () => (await request(test.url).get(`/api/audio/track/${id}/status`).set(awa.auth).expect(200)).body,
      (body: { status: string }) => body.status === 'PREVIEW_READY' || body.status === 'FAILED',
    );
    expect(status.status).toBe('PREVIEW_READY');
    const locked = await request(test.url).get(`/api/audio/track/${id}/stream/master`).set(awa.auth).expect(403);
    expect(locked.body.code).toBe('TRACKS.LOCKED');
    const broke = await request(test.url).post(`/api/audio/track/${id}/master`).set(awa.auth).send({ credit: true });
    expect([broke.status, broke.body.code]).toEqual([402, 'BILLING.INSUFFICIENT_CREDITS']);

    await buyPackOverHttp(test.url, awa.auth, 'mastering-starter');
    const unlocked = await request(test.url)
      .post(`/api/audio/track/${id}/master`)
      .set(awa.auth)
      .send({ credit: true })
      .expect(200);
    expect(unlocked.body).toMatchObject({
      unlocked: true,
      status: 'MASTER_READY',
      creditsUsed: 1,
      creditsRemaining: 4,
    });
    const master = await request(test.url).get(`/api/audio/track/${id}/stream/master`).set(awa.auth).expect(200);
    expect(master.headers['content-type']).toBe('audio/wav');
    const wav = master.body as Buffer;
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.subarray(8, 12).toString()).toBe('WAVE');
    expect(wav.length).toBeGreaterThan(8 * 44_100 * 2 * 2 * 0.9); // 8 s of 16-bit stereo at least
    // Someone else's master stays out of reach.
    await request(test.url).get(`/api/audio/track/${id}/stream/master`).set(kofi.auth).expect(404);
  }, 120_000);

  it('a real mix unlocked by a PayPal payment: the final mix streams after the unlock, not before', async () => {
    const { body } = await request(test.url)
      .post('/api/mixing/sessions/create')
      .set(kofi.auth)
      .send({ name: 'Lomé' })
      .expect(201);
    const id = body.session.id as string;
    for (const file of [files.music(6, 'Kick 808.wav'), files.voice(6, 'lead vocal.wav')]) {
      await request(test.url).post(`/api/mixing/sessions/${id}/tracks`).set(kofi.auth).attach('file', file).expect(201);
    }
    await request(test.url).post(`/api/mixing/sessions/${id}/master`).set(kofi.auth).expect(200);
    const preview = await until(
      async () => (await request(test.url).get(`/api/mixing/sessions/${id}/preview`).set(kofi.auth).expect(200)).body,
      (session: { status: string }) => session.status === 'COMPLETED' || session.status === 'FAILED',
    );
    expect(preview.status).toBe('COMPLETED');
    const locked = await request(test.url).get(`/api/mixing/sessions/${id}/stream/mix`).set(kofi.auth).expect(403);
    expect(locked.body.code).toBe('MIXING.LOCKED');
    // No AI_MIXING packs exist: a credit cannot pay for it.
    const credit = await request(test.url).post(`/api/audio/track/${id}/master`).set(kofi.auth).send({ credit: true });
    expect([credit.status, credit.body.code]).toEqual([402, 'BILLING.INSUFFICIENT_CREDITS']);

    const intent = await request(test.url)
      .post('/api/payments/createIntent')
      .set(kofi.auth)
      .send({ provider: 'PAYPAL', currency: 'USD', trackId: id, amount: 7.99 })
      .expect(201);
    expect(intent.body.amount).toBe(7.99);
    // Not paid yet: the unlock with the payment is refused and the mix stays locked.
    const early = await request(test.url)
      .post(`/api/audio/track/${id}/master`)
      .set(kofi.auth)
      .send({ paymentId: intent.body.paymentId });
    expect([early.status, early.body.code]).toEqual([402, 'BILLING.PAYMENT_NOT_CAPTURED']);
    await request(test.url).get(`/api/mixing/sessions/${id}/stream/mix`).set(kofi.auth).expect(403);

    await request(test.url).post(`/sandbox/paypal/orders/${intent.body.orderId}/approve`).send({}).expect(200);
    await request(test.url).post(`/api/payments/paypal/capture/${intent.body.orderId}`).set(kofi.auth).expect(200);
    const unlock = await request(test.url)
      .post(`/api/audio/track/${id}/master`)
      .set(kofi.auth)
      .send({ paymentId: intent.body.paymentId })
      .expect(200);
    expect(unlock.body).toMatchObject({ success: true, unlocked: true });
    const mix = await request(test.url).get(`/api/mixing/sessions/${id}/stream/mix`).set(kofi.auth).expect(200);
    expect(mix.headers['content-type']).toBe('audio/wav');
    expect((mix.body as Buffer).subarray(0, 4).toString()).toBe('RIFF');
    await request(test.url).get(`/api/mixing/sessions/${id}/stream/mix`).set(awa.auth).expect(404);
  }, 120_000);

  it('notifies a pack bought and a payment failed, in both languages', async () => {
    await buyPackOverHttp(test.url, kofi.auth, 'stems-starter');
    // Refused in the Orange Money app (insufficient balance): the payment fails.
    const intent = await request(test.url)
      .post('/api/subscriptions/subscribe')
      .set(kofi.auth)
      .send({ provider: 'ORANGE_MONEY', currency: 'XOF', planId: 'enhancement-starter' })
      .expect(201);
    await request(test.url)
      .post(`/sandbox/orange-money/payments/${intent.body.paymentId}/pay`)
      .send({ outcome: 'decline' })
      .expect(200);
    type Listed = { title: string; message: string; i18n: { en: { title: string }; fr: { title: string } } };
    const list = async (lang: 'en' | 'fr') =>
      (await request(test.url).get(`/api/notifications?type=PUSH&lang=${lang}`).set(kofi.auth).expect(200)).body
        .notifications as Listed[];
    const english = await until(
      () => list('en'),
      (items) => items.some((n) => n.title === 'Payment failed') && items.some((n) => n.title === 'Pack purchased'),
      10_000,
    );
    const pack = english.find((n) => n.title === 'Pack purchased')!;
    // Money and dates as each language writes them (Intl), not "27.99 USD" and "2026-12-26".
    expect(pack.message).toMatch(
      /^Your Starter pack \(\$27\.99\) adds 5 credits, usable until [A-Z][a-z]+ \d{1,2}, \d{4}\.$/,
    );
    const failed = english.find((n) => n.title === 'Payment failed')!.message;
    expect(failed).toContain('Nothing was charged');
    // The provider's reason, which the payer can act on.
    expect(failed).toContain('balance was too low');
    const french = await list('fr');
    expect(french.map((n) => n.title)).toEqual(expect.arrayContaining(['Pack acheté', 'Le paiement a échoué']));
    expect(french.find((n) => n.title === 'Pack acheté')!.message).toMatch(
      /^Votre pack Starter \(27,99\s\$\) ajoute 5 crédits, utilisables jusqu’au \d{1,2} [a-zéû]+ \d{4}\.$/,
    );
    expect(french.find((n) => n.title === 'Le paiement a échoué')!.message).toContain('Rien n’a été débité');
    expect(pack.i18n.fr.title).toBe('Pack acheté');
    // Awa's own notifications hold none of Kofi's payments.
    const awaList = (await request(test.url).get('/api/notifications?type=PUSH&lang=en').set(awa.auth)).body
      .notifications as Listed[];
    expect(awaList.filter((n) => n.title === 'Payment failed')).toEqual([]);
  });

  it('credits.changed and payment.status reach the owner’s sockets only', async () => {
    const before = { awa: seen.awa!.length, kofi: seen.kofi!.length };
    const { paymentId } = await buyPackOverHttp(test.url, awa.auth, 'enhancement-starter');
    const mine = () => seen.awa!.slice(before.awa);
    const deadline = Date.now() + 5_000;
    while (
      !(
        mine().some((m) => m.channel === 'credits.changed') &&
        mine().some((m) => m.channel === 'payment.status' && m.payload.status === 'paid')
      ) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const statuses = mine()
      .filter((m) => m.channel === 'payment.status' && m.payload.paymentId === paymentId)
      .map((m) => m.payload.status);
    expect(statuses).toEqual(['pending', 'paid']);
    expect(mine().find((m) => m.channel === 'payment.status')!.payload).toMatchObject({
      provider: 'PAYPAL',
      kind: 'PACK',
      planId: 'enhancement-starter',
    });
    expect(
      mine()
        .filter((m) => m.channel === 'credits.changed')
        .map((m) => m.payload),
    ).toEqual([
      expect.objectContaining({ service: 'AUDIO_ENHANCEMENT', change: 5, remaining: 5, reason: 'PackPurchased' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.kofi!.slice(before.kofi)).toEqual([]);
  });
});
