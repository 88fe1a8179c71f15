import { UnlockMix } from '@kora/mixing';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registeredUser, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { waitForMail } from '../support/oidc-client';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

/** The signed mix links of a mail: its label, its path, and the file its claims name. */
function linksOf(text: string): Array<{ label: string; path: string; file: string }> {
  return [
    ...text.matchAll(/^(.+): http:\/\/127\.0\.0\.1:\d+(\/api\/mixing\/download\/([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+)$/gm),
  ].map((match) => ({
    label: match[1]!,
    path: match[2]!,
    file: (JSON.parse(Buffer.from(match[3]!, 'base64url').toString('utf8')) as { f: string }).f,
  }));
}

describe('"your mix is ready" e-mails', () => {
  const media = tempDir('kora-mix-mail-');
  const files = makeMedia(media.path);
  let test: TestApp;
  let awa: TestUser; // French account
  let john: TestUser; // English account
  let kick = '';
  let vocal = '';

  beforeAll(async () => {
    kick = files.music(6, 'Kick 808.wav');
    vocal = files.voice(6, 'lead vocal.wav');
    test = await startTestApp({ realAuth: true, env: { DEV_OUTBOX: 'on' } });
    awa = await registeredUser(test, { email: 'awa.mix@example.sn', firstName: 'Awa', language: 'fr' });
    john = await registeredUser(test, { email: 'john.mix@example.com', firstName: 'John', language: 'en' });
  }, 60_000);
  afterAll(async () => {
    await test.close();
    media.cleanup();
  });

  /** A session of two tracks, mixed to COMPLETED; answers its id. */
  async function mixed(user: TestUser, name: string): Promise<string> {
    const created = await request(test.url).post('/api/mixing/sessions/create').set(user.auth).send({ name });
    const id = created.body.session.id as string;
    for (const file of [kick, vocal]) {
      await request(test.url).post(`/api/mixing/sessions/${id}/tracks`).set(user.auth).attach('file', file).expect(201);
    }
    await request(test.url).post(`/api/mixing/sessions/${id}/master`).set(user.auth).expect(200);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const status = (await request(test.url).get(`/api/mixing/sessions/${id}/status`).set(user.auth)).body.status;
      if (status === 'COMPLETED') return id;
      if (status === 'FAILED' || Date.now() > deadline) throw new Error(`the mix ended ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('mails the free preview of a finished mix, then the mix and every track once unlocked, in French', async () => {
    const id = await mixed(awa, 'Nuit à Dakar');
    const preview = await waitForMail(
      test.url,
      (mail) => mail.template === 'mix-ready' && mail.to === awa.email,
      new Set(),
      15_000,
    );
    expect(preview.subject).toBe('Votre aperçu est prêt : Nuit à Dakar');
    expect(preview.text).toContain('Bonjour Awa,');
    expect(preview.text).toContain('Le mix de « Nuit à Dakar » est terminé.');
    expect(preview.text).toContain('débloquez le mix dans Kora');
    expect(preview.text).toContain(`/dashboard?mix=${id}`);
    const free = linksOf(preview.text);
    expect(free.map((link) => [link.label, link.file])).toEqual([['Aperçu', 'preview']]);
    const heard = await request(test.url).get(free[0]!.path).expect(200);
    expect(heard.headers['content-disposition']).toMatch(/^attachment;/);
    // The preview's link cannot be turned into the full mix: the claims are signed.
    await request(test.url)
      .get(free[0]!.path.replace(/\/([A-Za-z0-9_-]+)\./, (_m, body: string) => `/${body.slice(0, -2)}xx.`))
      .expect(404);

    await test.app.get(CommandBus).execute(new UnlockMix(awa.userId, id, 'payment', 'test-payment'));
    const final = await waitForMail(
      test.url,
      (mail) => mail.template === 'mix-ready' && mail.to === awa.email && mail.id !== preview.id,
      new Set([preview.id]),
      15_000,
    );
    expect(final.subject).toBe('Vos fichiers sont prêts : Nuit à Dakar');
    const full = linksOf(final.text);
    expect(full.map((link) => link.label)).toEqual([
      'Mix final (WAV)',
      'Piste : Kick 808.wav',
      'Piste : lead vocal.wav',
    ]);
    for (const link of full) {
      const downloaded = await request(test.url).get(link.path).expect(200);
      expect(downloaded.headers['content-type']).toBe('audio/wav');
    }
  }, 150_000);

  it('writes to an English account in English', async () => {
    await mixed(john, 'Late night');
    const mail = await waitForMail(
      test.url,
      (entry) => entry.template === 'mix-ready' && entry.to === john.email,
      new Set(),
      15_000,
    );
    expect(mail.subject).toBe('Your preview is ready: Late night');
    expect(mail.text).toContain('Hello John,');
    expect(mail.text).toContain('The mix of “Late night” is done.');
    expect(mail.text).toContain('unlock the mix in Kora');
    expect(linksOf(mail.text).map((link) => link.label)).toEqual(['Preview']);
  }, 120_000);
});
