import { UnlockTrack } from '@kora/audio';
import { IdentityProvider } from '@kora/identity';
import { EventStore, ProcessorRunner, ReadStore } from '@kora/kernel';
import { ProcessorRegistry } from '@kora/kernel/nest';
import { CommandBus } from '@nestjs/cqrs';
import JSZip from 'jszip';
import { createHmac } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BuiltInIdentityProvider } from '../../src/identity-provider/built-in-provider';
import { registeredUser, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { outbox, type OutboxMail, waitForMail } from '../support/oidc-client';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

type Service = 'AI_MASTERING' | 'STEM_SEPARATION' | 'AUDIO_ENHANCEMENT';
const PROCESSOR = 'processor:track-ready-mails';
const LINK_SECRET = 'a1'.repeat(32);

/** The signed links of a mail, with the file each one names (read from the token's claims). */
function linksOf(text: string): Array<{ path: string; file: string; label: string }> {
  return [
    ...text.matchAll(/^(.+): (http:\/\/127\.0\.0\.1:\d+(\/api\/audio\/download\/([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+))$/gm),
  ].map((match) => ({
    label: match[1]!,
    path: match[2]!.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''),
    file: (JSON.parse(Buffer.from(match[4]!, 'base64url').toString('utf8')) as { f: string }).f,
  }));
}

/** The sample rate written in a WAV's fmt chunk. */
function wavSampleRate(bytes: Buffer): number {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  const fmt = bytes.indexOf('fmt ', 12, 'latin1');
  return bytes.readUInt32LE(fmt + 12);
}

const binary = (response: request.Response, callback: (error: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
};

describe('"your track is ready" e-mails', () => {
  const data = tempDir('kora-ready-mail-');
  const media = tempDir('kora-ready-media-');
  let test: TestApp;
  let awa: TestUser; // French account
  let john: TestUser; // English account
  let nadia: TestUser; // e-mail notifications off
  const tracks: Record<string, string> = {};
  let music: string;

  /** A fresh bearer (the provider's tokens live a minute, this suite longer). */
  const auth = async (user: TestUser) => {
    const provider = test.app.get(IdentityProvider) as BuiltInIdentityProvider;
    const token = await provider.signAccessToken(user.userId, 60, test.config.oidc.clientId, test.config.oidc.audience);
    return { Authorization: `Bearer ${token}` };
  };

  const upload = async (user: TestUser, service: Service, name: string): Promise<string> => {
    let call = request(test.url)
      .post('/api/audio/upload')
      .set(await auth(user))
      .field('service', service);
    if (service === 'STEM_SEPARATION') call = call.field('mode', 'vocals');
    if (service === 'AUDIO_ENHANCEMENT') call = call.field('preset', 'music');
    const uploaded = await call.attach('file', music, name).expect(201);
    return uploaded.body.id as string;
  };

  const waitForStatus = async (user: TestUser, trackId: string, wanted: string): Promise<void> => {
    const deadline = Date.now() + 150_000;
    for (;;) {
      const status = (
        await request(test.url)
          .get(`/api/audio/track/${trackId}/status`)
          .set(await auth(user))
      ).body;
      if (status.status === wanted) return;
      if (status.status === 'FAILED' || Date.now() > deadline) throw new Error(`${trackId}: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  /** Waits until the mail processor has handled every ready event appended so far. */
  const mailsSettled = async (): Promise<void> => {
    const { events } = await test.app
      .get(EventStore)
      .readAll({ after: 0, maxCount: 10_000, types: ['PreviewReady', 'StemsReady', 'MasterReady'] });
    const last = Math.max(...events.map((event) => event.position));
    const deadline = Date.now() + 10_000;
    while (((await test.app.get(ReadStore).getCheckpoint(PROCESSOR))?.position ?? 0) < last) {
      if (Date.now() > deadline) throw new Error('the ready-mail processor did not catch up');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const readyMails = async (to: string): Promise<OutboxMail[]> =>
    (await outbox(test.url)).filter((mail) => mail.template === 'track-ready' && mail.to === to);

  const mailFor = (user: TestUser, subject: RegExp) =>
    waitForMail(
      test.url,
      (mail) => mail.template === 'track-ready' && mail.to === user.email && subject.test(mail.subject),
      new Set(),
      15_000,
    );

  beforeAll(async () => {
    music = makeMedia(media.path).music(8);
    test = await startTestApp({ realAuth: true, dataDir: data.path, env: { DEV_OUTBOX: 'on', LINK_SECRET } });
    awa = await registeredUser(test, { email: 'awa.ready@example.sn', firstName: 'Awa', language: 'fr' });
    john = await registeredUser(test, { email: 'john.ready@example.com', firstName: 'John', language: 'en' });
    nadia = await registeredUser(test, { email: 'nadia.ready@example.ci', firstName: 'Nadia', language: 'fr' });
    await request(test.url)
      .put('/api/user/preferences')
      .set(await auth(nadia))
      .send({ notificationSettings: { emailNotifications: false } })
      .expect(200);
    // One job per service and account at a time; the single worker takes them in turn.
    for (const service of ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT'] as const) {
      tracks[`awa:${service}`] = await upload(awa, service, `Sabar <b>${service}.wav`);
      tracks[`john:${service}`] = await upload(john, service, `Highlife ${service}.wav`);
    }
    tracks['nadia:AI_MASTERING'] = await upload(nadia, 'AI_MASTERING', 'Zouglou.wav');
    for (const [key, trackId] of Object.entries(tracks)) {
      const [who, service] = key.split(':') as [string, Service];
      const user = { awa, john, nadia }[who]!;
      await waitForStatus(user, trackId, service === 'STEM_SEPARATION' ? 'STEMS_READY' : 'PREVIEW_READY');
    }
  }, 600_000);
  afterAll(async () => {
    await test.close();
    data.cleanup();
    media.cleanup();
  });

  it('mails the free preview of each service in French, with how to unlock and no paid file', async () => {
    const expected: Record<Service, { done: string; locked: string }> = {
      AI_MASTERING: {
        done: 'Le mastering de « Sabar AI_MASTERING.wav » est terminé.',
        locked: 'Pour télécharger le résultat en pleine qualité (WAV 44,1 kHz / 16 bits, WAV 48 kHz / 24 bits)',
      },
      STEM_SEPARATION: {
        done: 'La séparation en pistes de « Sabar STEM_SEPARATION.wav » est terminée.',
        locked: 'Pour télécharger le résultat en pleine qualité (Voix, Autres, Toutes les pistes (zip))',
      },
      AUDIO_ENHANCEMENT: {
        done: 'L’amélioration de « Sabar AUDIO_ENHANCEMENT.wav » est terminée.',
        locked: 'Pour télécharger le résultat en pleine qualité (Fichier amélioré (WAV))',
      },
    };
    for (const service of Object.keys(expected) as Service[]) {
      const trackId = tracks[`awa:${service}`]!;
      const mail = await mailFor(awa, new RegExp(`^Votre aperçu est prêt : Sabar ${service}\\.wav$`));
      expect(mail).toMatchObject({ language: 'fr' });
      expect(mail.text).toContain('Bonjour Awa,');
      expect(mail.text).toContain(expected[service].done);
      expect(mail.text).toContain('Écoutez l’aperçu gratuit :');
      expect(mail.text).toContain(expected[service].locked);
      expect(mail.text).toContain('par un paiement unique ou avec un crédit de votre formule');
      expect(mail.text).toContain(`${test.url}/dashboard?track=${trackId}`);
      expect(mail.text).toContain(`${test.url}/accountSettings?section=general`);
      // The day written as the French screens write it.
      expect(mail.text).toMatch(/Les liens fonctionnent jusqu’au \d{1,2} [a-zéû]+ \d{4}\./);
      const links = linksOf(mail.text);
      expect(links.map((link) => link.file)).toEqual(
        service === 'STEM_SEPARATION' ? ['preview-vocals', 'preview-other'] : ['preview'],
      );
      for (const link of links) {
        const answer = await request(test.url).get(link.path).expect(200);
        expect(answer.headers['content-type']).toBe('audio/mpeg');
        expect(answer.headers['content-disposition']).toMatch(/^attachment;/);
      }
    }
  });

  it('mails the preview of each service in English', async () => {
    const done: Record<Service, string> = {
      AI_MASTERING: 'The mastering of “Highlife AI_MASTERING.wav” is done.',
      STEM_SEPARATION: 'The separation of “Highlife STEM_SEPARATION.wav” into stems is done.',
      AUDIO_ENHANCEMENT: 'The enhancement of “Highlife AUDIO_ENHANCEMENT.wav” is done.',
    };
    for (const service of Object.keys(done) as Service[]) {
      const trackId = tracks[`john:${service}`]!;
      const mail = await mailFor(john, new RegExp(`^Your preview is ready: Highlife ${service}\\.wav$`));
      expect(mail).toMatchObject({ language: 'en' });
      expect(mail.text).toContain('Hello John,');
      expect(mail.text).toContain(done[service]);
      expect(mail.text).toContain('Listen to the free preview:');
      expect(mail.text).toContain('unlock the track in Kora, with a single payment or a credit from your plan:');
      expect(mail.text).toContain(`${test.url}/dashboard?track=${trackId}`);
      // The day written as the English screens write it (month first), not the British way.
      expect(mail.text).toMatch(/The links work until [A-Z][a-z]+ \d{1,2}, \d{4}\./);
      const links = linksOf(mail.text);
      expect(links.length).toBeGreaterThan(0);
      expect(links.every((link) => link.file.startsWith('preview'))).toBe(true);
      await request(test.url).get(links[0]!.path).expect(200);
    }
  });

  it('sends nothing to an account whose e-mail notifications are off', async () => {
    await mailsSettled();
    expect(await readyMails(nadia.email)).toEqual([]);
    // The push notification still goes: only the e-mail follows the preference.
    const notifications = (
      await request(test.url)
        .get('/api/notifications?type=PUSH')
        .set(await auth(nadia))
    ).body.notifications as Array<{ kind: string }>;
    expect(notifications.some((notification) => notification.kind === 'PREVIEW_READY')).toBe(true);
  });

  it('mails both WAV masters once a mastering is unlocked (English)', async () => {
    const trackId = tracks['john:AI_MASTERING']!;
    await test.app.get(CommandBus).execute(new UnlockTrack(john.userId, trackId, 'payment', `payment-${trackId}`));
    const mail = await mailFor(john, /^Your files are ready: Highlife AI_MASTERING\.wav$/);
    expect(mail.text).toContain('Your full-quality files are ready to download:');
    const links = linksOf(mail.text);
    expect(links.map((link) => [link.label, link.file])).toEqual([
      ['WAV 44.1 kHz / 16-bit', 'master'],
      ['WAV 48 kHz / 24-bit', 'master48'],
    ]);
    const rates = [];
    for (const link of links) {
      const answer = await request(test.url).get(link.path).buffer(true).parse(binary).expect(200);
      expect(answer.headers['content-type']).toBe('audio/wav');
      rates.push(wavSampleRate(answer.body as Buffer));
    }
    expect(rates).toEqual([44_100, 48_000]);
  });

  it('sends every download from the e-mail panel too, not only the 44.1 kHz master', async () => {
    const trackId = tracks['john:AI_MASTERING']!;
    await request(test.url)
      .post('/api/audio/send-email')
      .set(await auth(john))
      .send({ trackId, recipientEmail: 'studio@example.com', service: 'AI_MASTERING' })
      .expect(200);
    const mail = await waitForMail(test.url, (m) => m.template === 'track-result' && m.to === 'studio@example.com');
    expect(mail.language).toBe('en');
    expect(linksOf(mail.text).map((link) => [link.label, link.file])).toEqual([
      ['WAV 44.1 kHz / 16-bit', 'master'],
      ['WAV 48 kHz / 24-bit', 'master48'],
    ]);
  });

  it('mails every stem and the zip once a separation is unlocked (French)', async () => {
    const trackId = tracks['awa:STEM_SEPARATION']!;
    await test.app.get(CommandBus).execute(new UnlockTrack(awa.userId, trackId, 'credit', `spend-${trackId}`));
    const mail = await mailFor(awa, /^Vos fichiers sont prêts : Sabar STEM_SEPARATION\.wav$/);
    expect(mail.text).toContain('Vos fichiers en pleine qualité sont prêts à télécharger :');
    const links = linksOf(mail.text);
    expect(links.map((link) => [link.label, link.file])).toEqual([
      ['Voix', 'stem-vocals'],
      ['Autres', 'stem-other'],
      ['Toutes les pistes (zip)', 'stems.zip'],
    ]);
    const vocals = await request(test.url).get(links[0]!.path).buffer(true).parse(binary).expect(200);
    expect(vocals.headers['content-type']).toBe('audio/wav');
    const zipped = await request(test.url).get(links[2]!.path).buffer(true).parse(binary).expect(200);
    expect(zipped.headers['content-type']).toBe('application/zip');
    expect(zipped.headers['content-disposition']).toContain('Sabar STEM_SEPARATION_stems.zip');
    expect(Number(zipped.headers['content-length'])).toBe((zipped.body as Buffer).length);
    const zip = await JSZip.loadAsync(zipped.body as Buffer, { checkCRC32: true });
    expect(Object.keys(zip.files)).toEqual([
      'Sabar STEM_SEPARATION_vocals.wav',
      'Sabar STEM_SEPARATION_other.wav',
      'Sabar STEM_SEPARATION_original.wav',
    ]);
    const inside = await zip.file('Sabar STEM_SEPARATION_vocals.wav')!.async('nodebuffer');
    expect(inside.equals(vocals.body as Buffer)).toBe(true);
  });

  it('mails the enhanced file once an enhancement is unlocked (French)', async () => {
    const trackId = tracks['awa:AUDIO_ENHANCEMENT']!;
    await test.app.get(CommandBus).execute(new UnlockTrack(awa.userId, trackId, 'payment', `payment-${trackId}`));
    const mail = await mailFor(awa, /^Vos fichiers sont prêts : Sabar AUDIO_ENHANCEMENT\.wav$/);
    const links = linksOf(mail.text);
    expect(links.map((link) => [link.label, link.file])).toEqual([['Fichier amélioré (WAV)', 'master']]);
    const answer = await request(test.url).get(links[0]!.path).expect(200);
    expect(answer.headers['content-type']).toBe('audio/wav');
  });

  it('never answers a paid file of a locked track, whatever the link names', async () => {
    const trackId = tracks['john:STEM_SEPARATION']!;
    const mail = await mailFor(john, /^Your preview is ready: Highlife STEM_SEPARATION\.wav$/);
    expect(linksOf(mail.text).every((link) => link.file.startsWith('preview-'))).toBe(true);
    // A link signed with the server's own secret, for files the unlock gives: refused while the track is locked.
    const e = Math.floor(Date.now() / 1000) + 3600;
    for (const file of ['stem-vocals', 'stems.zip']) {
      const body = Buffer.from(JSON.stringify({ t: trackId, u: john.userId, f: file, e })).toString('base64url');
      const signature = createHmac('sha256', Buffer.from(LINK_SECRET, 'hex')).update(body).digest('base64url');
      const refused = await request(test.url).get(`/api/audio/download/${body}.${signature}`).expect(403);
      expect(refused.body.code).toBe('TRACKS.LOCKED');
    }
    expect(await readyMails(john.email)).toHaveLength(4); // three previews and the mastering's files
  });

  it('mails each finished job once, even when the processor replays the log from the start', async () => {
    await mailsSettled();
    const before = (await outbox(test.url)).filter((mail) => mail.template === 'track-ready').map((mail) => mail.id);
    expect(before).toHaveLength(9); // six previews (Nadia's is off) and three unlocked results
    await test.close();
    // The same data on a new server whose processors do not start on their own: the mail processor replays it all.
    test = await startTestApp({
      realAuth: true,
      dataDir: data.path,
      env: { DEV_OUTBOX: 'on', PROCESSORS: 'off', LINK_SECRET },
    });
    const processor = test.app.get(ProcessorRegistry).processors.filter((p) => p.name === 'track-ready-mails');
    expect(processor).toHaveLength(1);
    await test.app.get(ReadStore).setCheckpoint(PROCESSOR, { position: 0, version: 1 });
    await new ProcessorRunner(test.app.get(EventStore), test.app.get(ReadStore), processor).drain();
    expect((await test.app.get(ReadStore).getCheckpoint(PROCESSOR))?.position ?? 0).toBe(
      await test.app.get(EventStore).headPosition(),
    );
    const after = (await outbox(test.url)).filter((mail) => mail.template === 'track-ready').map((mail) => mail.id);
    expect(after.sort()).toEqual(before.sort());
  }, 60_000);
});
