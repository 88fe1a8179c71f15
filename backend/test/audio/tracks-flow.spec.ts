import { EventStore } from '@kora/kernel';
import { existsSync, readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitUntil } from '../contracts/event-store.contract';
import { registeredUser, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

/** The file cut to its first `bytes`, as an interrupted copy or download leaves it. */
function truncated(path: string, bytes: number): string {
  truncateSync(path, bytes);
  return path;
}

interface StatusMessage {
  trackId: string;
  status: string;
  progress: number | null;
}

describe('tracks: upload, processing, status, streams, deletion', () => {
  let test: TestApp;
  let awa: TestUser;
  let kofi: TestUser;
  let socket: Socket;
  const statuses: StatusMessage[] = [];
  const media = tempDir('kora-media-');
  const files = makeMedia(media.path);
  let music: string;
  let voice: string;

  beforeAll(async () => {
    music = files.music(8);
    voice = files.voice(4);
    test = await startTestApp({ realAuth: true });
    awa = await registeredUser(test, { email: 'awa@example.sn' });
    kofi = await registeredUser(test, { email: 'kofi@example.tg' });
    socket = io(test.url, { auth: { token: awa.token }, transports: ['websocket'], reconnection: false });
    socket.on('track.status', (message: StatusMessage) => statuses.push(message));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
  }, 60_000);
  afterAll(async () => {
    socket.disconnect();
    await test.close();
    media.cleanup();
  });

  const upload = (user: TestUser, file: string, fields: Record<string, string>) => {
    let call = request(test.url).post('/api/audio/upload').set(user.auth);
    for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
    return call.attach('file', file);
  };

  async function until(
    user: TestUser,
    trackId: string,
    done: (status: string) => boolean,
    timeoutMs = 60_000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await request(test.url).get(`/api/audio/track/${trackId}/status`).set(user.auth).expect(200);
      if (done(status.body.status)) return status.body;
      if (Date.now() > deadline) throw new Error(`track ${trackId} stayed ${status.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const blobFiles = (trackId: string): string[] => {
    const dir = join(test.dataDir, 'blobs', 'tracks', trackId);
    return existsSync(dir) ? readdirSync(dir).filter((name) => !name.endsWith('.type')) : [];
  };

  it('masters an upload: live status over the socket, a locked master, a preview that streams by range', async () => {
    const uploaded = await upload(awa, music, { service: 'AI_MASTERING' }).expect(201);
    const id = uploaded.body.id as string;
    expect(uploaded.body).toMatchObject({
      service: 'AI_MASTERING',
      filename: 'music.wav',
      format: 'wav',
      status: 'PROCESSING',
      isDemo: false,
    });

    const final = await until(awa, id, (status) => status === 'PREVIEW_READY' || status === 'FAILED');
    expect(final).toMatchObject({ status: 'PREVIEW_READY', error: null });
    await waitUntil(() => statuses.some((s) => s.trackId === id && s.status === 'PREVIEW_READY'));
    const seen = statuses.filter((s) => s.trackId === id).map((s) => s.status);
    expect(seen).toContain('ANALYZING');
    expect(seen.indexOf('ANALYZING')).toBeLessThan(seen.indexOf('PREVIEW_READY'));

    const track = await request(test.url).get(`/api/audio/track/${id}`).set(awa.auth).expect(200);
    expect(track.body).toMatchObject({
      previewUrl: `/api/audio/track/${id}/stream/preview`,
      masterUrl: null,
      unlocked: false,
    });
    const ranged = await request(test.url)
      .get(track.body.previewUrl)
      .set(awa.auth)
      .set('Range', 'bytes=0-99')
      .expect(206);
    expect(ranged.headers['content-type']).toBe('audio/mpeg');
    expect(ranged.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    expect(ranged.body.length).toBe(100);
    await request(test.url).get(track.body.previewUrl).set(awa.auth).set('Range', 'bytes=999999999-').expect(416);
    const head = await request(test.url).head(track.body.previewUrl).set(awa.auth).expect(200);
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.headers['content-length']).toBe(ranged.headers['content-range']?.split('/')[1]);
    const locked = await request(test.url).get(`/api/audio/track/${id}/stream/master`).set(awa.auth).expect(403);
    expect(locked.body.code).toBe('TRACKS.LOCKED');
    const original = await request(test.url).get(`/api/audio/track/${id}/stream/original`).set(awa.auth).expect(200);
    expect(original.headers['content-type']).toBe('audio/wav');

    const list = await request(test.url).get('/api/audio/tracks?service=AI_MASTERING').set(awa.auth).expect(200);
    expect(list.body).toMatchObject({ totalCount: 1, page: 1, limit: 10 });
    expect(list.body.tracks[0].id).toBe(id);

    expect(blobFiles(id).sort()).toEqual(['master', 'master48', 'original', 'preview', 'report']);
    await request(test.url).delete(`/api/audio/${id}`).set(awa.auth).expect(200);
    await request(test.url).get(`/api/audio/track/${id}`).set(awa.auth).expect(404);
    await waitUntil(() => blobFiles(id).length === 0, 10_000);
  });

  it('enhances a voice recording to a preview', async () => {
    const uploaded = await upload(awa, voice, { service: 'AUDIO_ENHANCEMENT', preset: 'voice' }).expect(201);
    const final = await until(awa, uploaded.body.id, (status) => ['PREVIEW_READY', 'FAILED'].includes(status));
    expect(final.status).toBe('PREVIEW_READY');
    const track = await request(test.url).get(`/api/audio/track/${uploaded.body.id}`).set(awa.auth).expect(200);
    expect(track.body.preset).toBe('voice');
    await request(test.url).get(track.body.previewUrl).set(awa.auth).expect(200).expect('Content-Type', 'audio/mpeg');
  });

  it('refuses every bad upload with its message key, keeping no file, event or read model', async () => {
    const events = test.app.get(EventStore);
    const head = await events.headPosition();
    const before = readdirSync(join(test.dataDir, 'blobs', 'tracks'));
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [files.fake('notes.wav', 2_000_000), { service: 'AI_MASTERING' }, 400, 'UPLOAD.AUDIO_FORMAT'],
      [files.music(2, 'short.wav'), { service: 'AI_MASTERING' }, 400, 'UPLOAD.FILE_SIZE_MIN'],
      [files.fake('tiny.wav', 500), { service: 'AUDIO_ENHANCEMENT' }, 400, 'UPLOAD.FILE_SIZE_MIN'],
      [music, { service: 'AI_MIXING' }, 400, 'UPLOAD.INVALID_SERVICE'],
      [music, { service: 'STEM_SEPARATION', mode: 'banjo' }, 400, 'UPLOAD.INVALID_MODE'],
      [files.video(1), { service: 'AUDIO_ENHANCEMENT', preset: 'audio' }, 400, 'UPLOAD.AUDIO_FORMAT'],
      // A real WAV cut short (its header declares more data than the file holds): damaged, not the wrong kind.
      [truncated(files.music(20, 'cut.wav'), 2_000_000), { service: 'AI_MASTERING' }, 400, 'UPLOAD.DAMAGED_FILE'],
      [voice, { service: 'AUDIO_ENHANCEMENT', preset: 'video' }, 400, 'UPLOAD.INVALID_VIDEO_FORMAT'],
      [
        files.video(1, 'silent.mp4', false),
        { service: 'AUDIO_ENHANCEMENT', preset: 'video' },
        400,
        'UPLOAD.NO_AUDIO_TRACK',
      ],
    ];
    for (const [file, fields, status, code] of cases) {
      const response = await upload(awa, file, fields);
      expect({ file, status: response.status, code: response.body.code }).toEqual({ file, status, code });
    }
    const noFile = await request(test.url)
      .post('/api/audio/upload')
      .set(awa.auth)
      .field('service', 'AI_MASTERING')
      .expect(400);
    expect(noFile.body.code).toBe('UPLOAD.FILE_REQUIRED');
    // Reactions to the earlier tests' jobs (a ready e-mail recorded...) may land meanwhile; no upload began a stream.
    const { events: since } = await events.readAll({ after: head, maxCount: 1_000 });
    expect(since.filter((event) => event.revision === 0)).toEqual([]);
    expect(readdirSync(join(test.dataDir, 'blobs', 'tracks'))).toEqual(before);
  });

  it('accepts MP3 for mastering and refuses a second upload while one is processing', async () => {
    const first = await upload(awa, files.mp3(60), { service: 'AI_MASTERING' }).expect(201);
    const second = await upload(awa, music, { service: 'AI_MASTERING' }).expect(409);
    expect(second.body).toMatchObject({
      code: 'TRACKS.ALREADY_PROCESSING',
      message: 'There is already a track being processed. Please wait for it to complete.',
    });
    await until(awa, first.body.id, (status) => ['PREVIEW_READY', 'FAILED'].includes(status));
  });

  it('cancels processing within a second', async () => {
    const long = files.voice(240, 'long-voice.wav');
    const uploaded = await upload(awa, long, { service: 'AUDIO_ENHANCEMENT', preset: 'podcast' }).expect(201);
    const id = uploaded.body.id as string;
    await until(awa, id, (status) => ['ANALYZING', 'ENHANCING'].includes(status), 30_000);
    const { JobRunner } = await import('@kora/kernel/nest');
    const runner = test.app.get(JobRunner);
    expect(runner.active).toBe(1);
    const cancelledAt = Date.now();
    await request(test.url).post(`/api/audio/track/${id}/cancel`).set(awa.auth).expect(200);
    await waitUntil(() => runner.active === 0, 5_000);
    expect(Date.now() - cancelledAt).toBeLessThan(1_500);
    const status = await request(test.url).get(`/api/audio/track/${id}/status`).set(awa.auth).expect(200);
    expect(status.body).toMatchObject({ status: 'CANCELLED', errorCode: 'PROCESSING.CANCELLED' });
    await request(test.url).post(`/api/audio/track/${id}/cancel`).set(awa.auth).expect(409);
  });

  it("answers 404 to another user probing a track's every route", async () => {
    const mine = await upload(awa, voice, { service: 'AUDIO_ENHANCEMENT' }).expect(201);
    const id = mine.body.id as string;
    await until(awa, id, (status) => ['PREVIEW_READY', 'FAILED'].includes(status));
    for (const [method, path] of [
      ['get', `/api/audio/track/${id}`],
      ['get', `/api/audio/track/${id}/status`],
      ['get', `/api/audio/track/${id}/stream/preview`],
      ['get', `/api/audio/track/${id}/stream/original`],
      ['post', `/api/audio/track/${id}/cancel`],
      ['delete', `/api/audio/${id}`],
    ] as const) {
      const response = await request(test.url)[method](path).set(kofi.auth);
      expect({ path, method, status: response.status }).toEqual({ path, method, status: 404 });
    }
    const send = await request(test.url)
      .post('/api/audio/send-email')
      .set(kofi.auth)
      .send({ trackId: id, recipientEmail: 'x@example.com', service: 'AUDIO_ENHANCEMENT' });
    expect(send.status).toBe(404);
    expect((await request(test.url).get('/api/audio/tracks').set(kofi.auth)).body.totalCount).toBe(0);
    await request(test.url).get(`/api/audio/track/${id}`).set(awa.auth).expect(200);
  });
});
