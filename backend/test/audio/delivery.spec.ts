import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DAY, registeredUser, TestClock, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { decodeQuotedPrintable } from '../support/oidc-client';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

describe('result delivery: notifications and e-mailed links', () => {
  const clock = new TestClock(new Date());
  let test: TestApp;
  let awa: TestUser;
  let trackId: string;
  const media = tempDir('kora-media-');

  beforeAll(async () => {
    test = await startTestApp({ realAuth: true, clock, env: { DEV_OUTBOX: 'on' } }); // the test reads the mails
    awa = await registeredUser(test, { email: 'awa@example.sn', language: 'fr', emailVerified: true });
    const uploaded = await request(test.url)
      .post('/api/audio/upload')
      .set(awa.auth)
      .field('service', 'AI_MASTERING')
      .attach('file', makeMedia(media.path).music(8), 'Sabar <b>live.wav')
      .expect(201);
    trackId = uploaded.body.id;
    expect(uploaded.body.filename).toBe('Sabar live.wav');
    const deadline = Date.now() + 60_000;
    while (
      (await request(test.url).get(`/api/audio/track/${trackId}/status`).set(awa.auth)).body.status !== 'PREVIEW_READY'
    ) {
      if (Date.now() > deadline) throw new Error('not processed');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 90_000);
  afterAll(async () => {
    await test.close();
    media.cleanup();
  });

  it('notifies the owner once the preview is ready, in both languages', async () => {
    let notifications: Array<{
      kind: string;
      trackId: string;
      i18n: { fr: { message: string }; en: { message: string } };
    }> = [];
    const deadline = Date.now() + 10_000;
    while (!notifications.some((n) => n.kind === 'PREVIEW_READY') && Date.now() < deadline) {
      notifications = (await request(test.url).get('/api/notifications?type=PUSH').set(awa.auth)).body.notifications;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const ready = notifications.find((n) => n.kind === 'PREVIEW_READY');
    expect(ready).toMatchObject({ trackId });
    expect(ready!.i18n.fr.message).toBe('Le mastering de « Sabar live.wav » est terminé : écoutez l’aperçu.');
    expect(ready!.i18n.en.message).toBe('The mastering of “Sabar live.wav” is done: listen to the preview.');
  });

  it('e-mails a signed link that downloads the result for 7 days, in the account language', async () => {
    const sent = await request(test.url)
      .post('/api/audio/send-email')
      .set(awa.auth)
      .send({ trackId, recipientEmail: 'producer@example.com', service: 'AI_MASTERING' })
      .expect(200);
    expect(Date.parse(sent.body.expiresAt) - clock.now().getTime()).toBe(7 * DAY);
    const outbox = (await request(test.url).get('/dev/outbox').set('Accept', 'application/json')).body as Array<{
      id: string;
      to: string;
      template: string;
      language: string;
    }>;
    const mail = outbox.find((entry) => entry.template === 'track-result')!;
    expect(mail).toMatchObject({ to: 'producer@example.com', language: 'fr' });
    const raw = decodeQuotedPrintable((await request(test.url).get(`/dev/outbox/${mail.id}`)).text);
    expect(raw).toContain('Voici l’aperçu de « Sabar live.wav ».');
    const link = new URL(/http:\/\/127\.0\.0\.1:\d+\/api\/audio\/download\/[A-Za-z0-9_.-]+/.exec(raw)![0]).pathname;

    const download = await request(test.url).get(link).expect(200);
    expect(download.headers['content-type']).toBe('audio/mpeg');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    await request(test.url)
      .get(`${link.slice(0, -3)}abc`)
      .expect(404); // a forged signature
    clock.advance(7 * DAY + 1_000);
    const expired = await request(test.url).get(link).expect(410);
    expect(expired.body.code).toBe('TRACKS.LINK_EXPIRED');
  });

  it('refuses a malformed recipient', async () => {
    const refused = await request(test.url)
      .post('/api/audio/send-email')
      .set(awa.auth)
      .send({ trackId, recipientEmail: 'nope' })
      .expect(400);
    expect(refused.body.fields).toEqual({ recipientEmail: 'EMAIL.INVALID_ADDRESS' });
  });

  it('mails the account’s own address at will, others 5 a day, under a subject that names no file', async () => {
    const send = (recipientEmail: string) =>
      request(test.url).post('/api/audio/send-email').set(awa.auth).send({ trackId, recipientEmail });
    const profile = await request(test.url).get('/api/user/profile').set(awa.auth).expect(200);
    expect(profile.body.profile.isEmailVerified).toBe(true); // asked of the provider, and recorded
    for (let i = 0; i < 8; i += 1) await send('AWA@example.sn').expect(200);
    // Five other addresses (the producer's mail was a week ago), then no more today.
    for (let i = 1; i <= 5; i += 1) await send(`fan-${i}@example.org`).expect(200);
    const refused = await send('fan-6@example.org').expect(429);
    expect(refused.body).toMatchObject({ code: 'EMAIL.DAILY_LIMIT' });
    expect(refused.body.details.retryAfterSeconds).toBeGreaterThan(0);
    await send('awa@example.sn').expect(200); // its own address still
    const outbox = (await request(test.url).get('/dev/outbox').set('Accept', 'application/json')).body as Array<{
      to: string;
      subject: string;
      template: string;
    }>;
    const results = outbox.filter((mail) => mail.template === 'track-result');
    expect(results.filter((mail) => mail.to === 'fan-6@example.org')).toEqual([]);
    expect(new Set(results.map((mail) => mail.subject))).toEqual(new Set(['Votre aperçu Kora']));
    // A day later, strangers again.
    clock.advance(DAY + 1_000);
    await send('fan-6@example.org').expect(200);
  });
});
