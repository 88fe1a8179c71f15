import { EventStore, ReadStore } from '@kora/kernel';
import { mixStream } from '@kora/mixing/contracts';
import { truncateSync } from 'node:fs';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registeredUser, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

describe('mixing sessions', () => {
  let test: TestApp;
  let awa: TestUser;
  let kofi: TestUser;
  const media = tempDir('kora-media-');
  const files = makeMedia(media.path);
  let kick: string;
  let vocal: string;
  let bass: string;
  const sockets: Socket[] = [];
  /** `mix.status` messages seen by each user's socket. */
  const seen: Record<string, Array<{ sessionId: string; status: string; progress?: number }>> = { awa: [], kofi: [] };

  async function listen(name: string, user: TestUser): Promise<void> {
    const socket = io(test.url, { auth: { token: user.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    socket.on('mix.status', (message) => seen[name]!.push(message));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
  }

  beforeAll(async () => {
    kick = files.music(6, 'Kick 808.wav');
    vocal = files.voice(6, 'lead vocal.wav');
    bass = files.music(5, 'bass line.wav');
    test = await startTestApp({ realAuth: true });
    awa = await registeredUser(test, { email: 'awa@example.sn' });
    kofi = await registeredUser(test, { email: 'kofi@example.tg' });
    await listen('awa', awa);
    await listen('kofi', kofi);
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await test.close();
    media.cleanup();
  });

  const create = (user: TestUser, body: Record<string, unknown>) =>
    request(test.url).post('/api/mixing/sessions/create').set(user.auth).send(body);

  it('creates a session with the defaults, and requires a name', async () => {
    const created = await create(awa, { name: 'Ma chanson' }).expect(201);
    expect(created.body.session).toMatchObject({
      name: 'Ma chanson',
      mixingStyle: 'POP',
      sampleRate: 44100,
      status: 'CREATED',
      tracks: [],
    });
    const nameless = await create(awa, { name: '  ' }).expect(400);
    expect(nameless.body.fields).toEqual({ name: 'MIXING.NAME_REQUIRED' });
    const wrong = await create(awa, { name: 'x', mixingStyle: 'JAZZ', sampleRate: 22050 }).expect(400);
    expect(wrong.body.fields).toEqual({
      mixingStyle: 'MIXING.INVALID_STYLE',
      sampleRate: 'MIXING.INVALID_SAMPLE_RATE',
    });
  });

  it('adds WAV files with settings, guesses groups from names, refuses other formats and a sixth file', async () => {
    const { body } = await create(awa, { name: 'Sabar', mixingStyle: 'HIPHOP_GRIME', sampleRate: 48000 }).expect(201);
    const id = body.session.id as string;
    const one = await request(test.url)
      .post(`/api/mixing/sessions/${id}/tracks`)
      .set(awa.auth)
      .attach('file', kick)
      .expect(201);
    expect(one.body.session.tracks[0]).toMatchObject({
      filename: 'Kick 808.wav',
      instrumentGroup: 'kick',
      presenceSetting: 'NORMAL',
      panPreference: 'NO_PREFERENCE',
      reverbPreference: 'NONE',
    });

    const batch = await request(test.url)
      .post(`/api/mixing/sessions/${id}/tracks/batch`)
      .set(awa.auth)
      .field(
        'settings',
        JSON.stringify([{ fileName: 'lead vocal.wav', presenceSetting: 'LEAD', reverbPreference: 'MEDIUM' }]),
      )
      .attach('files', vocal)
      .attach('files', bass)
      .expect(201);
    const tracks = batch.body.session.tracks as Array<Record<string, unknown>>;
    expect(tracks.map((t) => [t.filename, t.instrumentGroup, t.presenceSetting])).toEqual([
      ['Kick 808.wav', 'kick', 'NORMAL'],
      ['lead vocal.wav', 'vocal', 'LEAD'],
      ['bass line.wav', 'bass', 'NORMAL'],
    ]);

    // What the refusals below must leave as it was: the session's own stream (other work may append elsewhere).
    const sessionEvents = async () => (await test.app.get(EventStore).readStream(mixStream(id))).length;
    const recorded = await sessionEvents();
    const mp3 = await request(test.url)
      .post(`/api/mixing/sessions/${id}/tracks`)
      .set(awa.auth)
      .attach('file', files.mp3(3))
      .expect(400);
    expect(mp3.body.code).toBe('UPLOAD.FILE_FORMAT');
    // A WAV cut short is damaged, not the wrong kind of file.
    const cut = files.music(6, 'cut.wav');
    truncateSync(cut, 200_000);
    const damaged = await request(test.url)
      .post(`/api/mixing/sessions/${id}/tracks`)
      .set(awa.auth)
      .attach('file', cut)
      .expect(400);
    expect(damaged.body.code).toBe('UPLOAD.DAMAGED_FILE');
    const none = await request(test.url)
      .post(`/api/mixing/sessions/${id}/tracks/batch`)
      .set(awa.auth)
      .field('settings', '[]')
      .expect(400);
    expect(none.body).toMatchObject({ code: 'MIXING.NO_FILES', message: 'No files provided for upload' });
    const tooMany = await request(test.url)
      .post(`/api/mixing/sessions/${id}/tracks/batch`)
      .set(awa.auth)
      .attach('files', kick)
      .attach('files', bass)
      .attach('files', vocal)
      .expect(400);
    expect(tooMany.body.code).toBe('MIXING.MAXIMUM_FILES');
    expect(await sessionEvents()).toBe(recorded);

    const bassId = tracks[2]!.trackId as string;
    const changed = await request(test.url)
      .put(`/api/mixing/tracks/${bassId}`)
      .set(awa.auth)
      .send({ panPreference: 'LEFT' })
      .expect(200);
    expect(changed.body.session.tracks[2]).toMatchObject({ panPreference: 'LEFT', instrumentGroup: 'bass' });
    const bad = await request(test.url)
      .put(`/api/mixing/tracks/${bassId}`)
      .set(awa.auth)
      .send({ panPreference: 'UP' })
      .expect(400);
    expect(bad.body.fields).toEqual({ panPreference: 'MIXING.INVALID_PAN_PREFERENCE' });
    await request(test.url)
      .put('/api/mixing/tracks/batch-settings')
      .set(awa.auth)
      .send({ updates: [{ trackId: bassId, reverbPreference: 'LOW' }], musicalStyle: 'REGGAE_DUB' })
      .expect(200);
    const after = await request(test.url).get(`/api/mixing/sessions/${id}`).set(awa.auth).expect(200);
    expect(after.body.session).toMatchObject({ mixingStyle: 'REGGAE_DUB', sampleRate: 48000 });
    expect(after.body.session.tracks[2]).toMatchObject({ panPreference: 'LEFT', reverbPreference: 'LOW' });

    // Another user sees none of it.
    await request(test.url).get(`/api/mixing/sessions/${id}`).set(kofi.auth).expect(404);
    await request(test.url)
      .put(`/api/mixing/tracks/${bassId}`)
      .set(kofi.auth)
      .send({ panPreference: 'RIGHT' })
      .expect(404);
    expect((await request(test.url).get('/api/mixing/sessions').set(kofi.auth)).body.sessions).toEqual([]);
  });

  it('makes the mix: processing, then the final mix first and every track on the board', async () => {
    const { body } = await create(awa, { name: 'Dakar nights' }).expect(201);
    const id = body.session.id as string;
    await request(test.url).post(`/api/mixing/sessions/${id}/tracks`).set(awa.auth).attach('file', kick).expect(201);
    const tooFew = await request(test.url).post(`/api/mixing/sessions/${id}/master`).set(awa.auth).expect(400);
    expect(tooFew.body.code).toBe('MIXING.MINIMUM_FILES');
    await request(test.url).post(`/api/mixing/sessions/${id}/tracks`).set(awa.auth).attach('file', vocal).expect(201);

    const started = await request(test.url).post(`/api/mixing/sessions/${id}/master`).set(awa.auth).expect(200);
    expect(started.body).toMatchObject({ status: 'PROCESSING', tracks: [] });
    const deadline = Date.now() + 60_000;
    let preview;
    for (;;) {
      preview = await request(test.url).get(`/api/mixing/sessions/${id}/preview`).set(awa.auth).expect(200);
      if (preview.body.status === 'COMPLETED' || preview.body.status === 'FAILED') break;
      if (Date.now() > deadline) throw new Error(`the mix did not finish: ${JSON.stringify(preview.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(preview.body.status).toBe('COMPLETED');
    // Live on the owner's socket only: the request, then the finished mix.
    const finished = Date.now() + 2_000;
    const mine = () => seen.awa!.filter((message) => message.sessionId === id && message.progress === undefined);
    while (mine().length < 2 && Date.now() < finished) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mine().map((message) => message.status)).toEqual(['PROCESSING', 'COMPLETED']);
    expect(seen.kofi).toEqual([]);
    expect(preview.body.tracks.map((t: { type: string }) => t.type)).toEqual(['mix', 'kick', 'vocal']);
    // Each track's row carries what the mixer decided for it, read from the engine's report.
    expect(preview.body.tracks[0].mixer).toBeUndefined();
    for (const row of preview.body.tracks.slice(1)) {
      expect(row.mixer).toMatchObject({
        gainDb: expect.any(Number),
        targetLufs: expect.any(Number),
        pan: { position: expect.any(Number), width: expect.any(Number), reason: expect.any(String) },
      });
      expect(Array.isArray(row.mixer.eq)).toBe(true);
      for (const band of row.mixer.eq)
        expect(band).toMatchObject({
          freqHz: expect.any(Number),
          purpose: expect.any(String),
          reason: expect.any(String),
        });
    }
    // Kick drums are compressed by the group's profile; the voice is centred.
    expect(preview.body.tracks[1].mixer.compression).toMatchObject({ ratio: expect.any(Number) });
    expect(preview.body.tracks[2].mixer.pan.position).toBe(0);
    const mixRow = preview.body.tracks[0];
    await request(test.url)
      .get(mixRow.url)
      .set(awa.auth)
      .set('Range', 'bytes=0-99')
      .expect(206)
      .expect('Content-Type', 'audio/mpeg');
    const locked = await request(test.url).get(`/api/mixing/sessions/${id}/stream/mix`).set(awa.auth).expect(403);
    expect(locked.body.code).toBe('MIXING.LOCKED');
    expect((await request(test.url).get(`/api/mixing/sessions/${id}/status`).set(awa.auth)).body.status).toBe(
      'COMPLETED',
    );

    // Changing a setting invalidates the mix: it must be made again.
    const trackId = preview.body.session.tracks[0].trackId as string;
    await request(test.url)
      .put(`/api/mixing/tracks/${trackId}`)
      .set(awa.auth)
      .send({ presenceSetting: 'BACKGROUND' })
      .expect(200);
    expect((await request(test.url).get(`/api/mixing/sessions/${id}/preview`).set(awa.auth)).body).toMatchObject({
      status: 'CREATED',
      tracks: [],
    });
    await request(test.url).post(`/api/mixing/tracks/${trackId}/delete`).set(awa.auth).expect(200);
    expect((await request(test.url).get(`/api/mixing/sessions/${id}`).set(awa.auth)).body.session.tracks).toHaveLength(
      1,
    );
  }, 120_000);
  it('cancels a mix that is being made, and makes it again on request', async () => {
    const { body } = await create(awa, { name: 'Abidjan' }).expect(201);
    const id = body.session.id as string;
    await request(test.url)
      .post(`/api/mixing/sessions/${id}/tracks/batch`)
      .set(awa.auth)
      .attach('files', kick)
      .attach('files', bass)
      .attach('files', vocal)
      .expect(201);
    await request(test.url).post(`/api/mixing/sessions/${id}/master`).set(awa.auth).expect(200);
    await request(test.url).post(`/api/mixing/sessions/${id}/cancel`).set(kofi.auth).expect(404);
    await request(test.url).post(`/api/mixing/sessions/${id}/cancel`).set(awa.auth).expect(200);
    const cancelled = await request(test.url).get(`/api/mixing/sessions/${id}/status`).set(awa.auth).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED' });
    // The job leaves the queue (a processor removes it): nothing is rendered for the cancelled request.
    const jobs = test.app.get(ReadStore).collection('_jobs');
    const gone = Date.now() + 2_000;
    while ((await jobs.find({ subject: id })).length > 0 && Date.now() < gone) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await jobs.find({ subject: id })).toEqual([]);

    await request(test.url).post(`/api/mixing/sessions/${id}/master`).set(awa.auth).expect(200);
    const deadline = Date.now() + 60_000;
    let status = '';
    while (status !== 'COMPLETED' && status !== 'FAILED' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      status = (await request(test.url).get(`/api/mixing/sessions/${id}/status`).set(awa.auth)).body.status;
    }
    expect(status).toBe('COMPLETED');
  }, 90_000);
});
