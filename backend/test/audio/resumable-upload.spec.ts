import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { toolPath } from '@kora/audio-engine';
import { makeMedia } from '../support/media';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

const TUS = { 'Tus-Resumable': '1.0.0' };

function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

/** Sends `file` with tus-js-client, the web app's own client, in `chunkSize` pieces; resolves with the upload's id. */
function tusUpload(
  url: string,
  token: string,
  file: Buffer,
  meta: Record<string, string>,
  options: Partial<tus.UploadOptions> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: `${url}/api/uploads`,
      headers: { Authorization: `Bearer ${token}` },
      metadata: meta,
      retryDelays: [],
      ...options,
      onError: reject,
      onSuccess: () => resolve(upload.url!.split('/').pop()!),
    });
    upload.start();
  });
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A PATCH that sends `first` bytes and then waits, its connection open: resolves with the answer if one comes while
 * the rest is held back (a refusal by the first bytes), or `null` after `waitMs`, when it destroys the connection (a
 * dropped network).
 */
function patchThenHold(
  url: string,
  token: string,
  id: string,
  offset: number,
  first: Buffer,
  waitMs: number,
  length: number,
) {
  return new Promise<RawAnswer | null>((resolve) => {
    const req = httpRequest(`${url}/api/uploads/${id}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/offset+octet-stream',
        'Upload-Offset': String(offset),
        // The rest of the file, as a client sending it whole announces.
        'Content-Length': String(length - offset),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(null);
    }, waitMs);
    req.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        req.destroy();
      });
    });
    // The server closed it (a newer request took the upload over).
    req.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    req.write(first);
  });
}

/** A WAV header declaring `seconds` of 16-bit stereo at `rate`, followed by `bodyBytes` of silence. */
function wavHeader(rate: number, seconds: number, bodyBytes: number): Buffer {
  const dataBytes = Math.round(rate * seconds) * 4;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(bodyBytes)]);
}

describe('resumable uploads (tus 1.0.0)', () => {
  let test: TestApp;
  let token: string;
  let other: string;
  const media = tempDir();
  let song: Buffer;
  beforeAll(async () => {
    test = await startTestApp();
    token = await test.token('resumable-user');
    other = await test.token('resumable-other');
    song = readFileSync(makeMedia(media.path).music(14, 'song.wav'));
  }, 60_000);
  afterAll(async () => {
    await test.close();
    media.cleanup();
  });

  const auth = (who = token) => ({ Authorization: `Bearer ${who}`, ...TUS });
  const staged = () => readdirSync(join(test.dataDir, 'uploads'));

  it('says what it supports, without a token', async () => {
    const answer = await request(test.url).options('/api/uploads').expect(204);
    expect(answer.headers['tus-version']).toBe('1.0.0');
    expect(answer.headers['tus-extension']).toBe('creation,termination,expiration');
    expect(Number(answer.headers['tus-max-size'])).toBe(100 * 1024 * 1024);
  });

  it('takes a file from tus-js-client in pieces and starts its job, the stored file byte for byte', async () => {
    const id = await tusUpload(
      test.url,
      token,
      song,
      { purpose: 'track', service: 'AI_MASTERING', filename: 'song.wav' },
      { chunkSize: 400_000 },
    );
    const created = await request(test.url)
      .post('/api/audio/upload')
      .set(auth())
      .send({ upload: id, service: 'AI_MASTERING', intensity: 'high' })
      .expect(201);
    expect(created.body).toMatchObject({ filename: 'song.wav', service: 'AI_MASTERING', fileSize: song.length });
    const original = readFileSync(join(test.dataDir, 'blobs', 'tracks', created.body.id, 'original'));
    expect(original.equals(song)).toBe(true);
    // Used once: a second job from the same upload finds nothing, and the staging holds nothing of it.
    const again = await request(test.url)
      .post('/api/audio/upload')
      .set(auth())
      .send({ upload: id, service: 'STEM_SEPARATION' })
      .expect(404);
    expect(again.body.code).toBe('UPLOAD.NOT_FOUND');
    expect(staged().filter((name) => name.startsWith(id))).toEqual([]);
  });

  it('keeps the bytes of a dropped connection and goes on from them, never from zero', async () => {
    const created = await request(test.url)
      .post('/api/uploads')
      .set(auth())
      .set('Upload-Length', String(song.length))
      .set('Upload-Metadata', metadata({ purpose: 'track', service: 'STEM_SEPARATION', filename: 'dropped.wav' }))
      .expect(201);
    const id = String(created.headers.location).split('/').pop()!;
    expect(created.headers['upload-offset']).toBe('0');
    // 300 kB, then the network drops.
    expect(await patchThenHold(test.url, token, id, 0, song.subarray(0, 300_000), 1_000, song.length)).toBeNull();
    let offset = 0;
    for (let i = 0; i < 50 && offset < 300_000; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      offset = Number(
        (await request(test.url).head(`/api/uploads/${id}`).set(auth()).expect(200)).headers['upload-offset'],
      );
    }
    expect(offset).toBe(300_000);
    // tus-js-client resumes from the server's offset: only the rest crosses the network.
    let firstSent = -1;
    const resumed = new tus.Upload(song, {
      endpoint: `${test.url}/api/uploads`,
      uploadUrl: `${test.url}/api/uploads/${id}`,
      headers: { Authorization: `Bearer ${token}` },
      retryDelays: [],
      onProgress: (sent) => {
        if (firstSent < 0) firstSent = sent;
      },
    });
    await new Promise<void>((resolve, reject) => {
      resumed.options.onSuccess = () => resolve();
      resumed.options.onError = reject;
      resumed.start();
    });
    expect(firstSent).toBeGreaterThanOrEqual(300_000);
    const track = await request(test.url)
      .post('/api/audio/upload')
      .set(auth())
      .send({ upload: id, service: 'STEM_SEPARATION', mode: 'full' })
      .expect(201);
    expect(readFileSync(join(test.dataDir, 'blobs', 'tracks', track.body.id, 'original')).equals(song)).toBe(true);
  });

  it('lets a new connection take over from one the server has not seen drop', async () => {
    const created = await request(test.url)
      .post('/api/uploads')
      .set(auth())
      .set('Upload-Length', String(song.length))
      .set('Upload-Metadata', metadata({ purpose: 'track', service: 'AUDIO_ENHANCEMENT', preset: 'music' }))
      .expect(201);
    const id = String(created.headers.location).split('/').pop()!;
    // The old connection stays open, silent (a phone that switched from Wi-Fi to 4G).
    const held = patchThenHold(test.url, token, id, 0, song.subarray(0, 100_000), 10_000, song.length);
    let offset = 0;
    while (offset < 100_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      offset = Number((await request(test.url).head(`/api/uploads/${id}`).set(auth())).headers['upload-offset']);
    }
    await request(test.url)
      .patch(`/api/uploads/${id}`)
      .set(auth())
      .set('Content-Type', 'application/offset+octet-stream')
      .set('Upload-Offset', String(offset))
      .send(song.subarray(offset))
      .expect(204)
      .expect('Upload-Offset', String(song.length));
    expect(await held).toBeNull();
    await request(test.url)
      .post('/api/audio/upload')
      .set(auth())
      .send({ upload: id, service: 'AUDIO_ENHANCEMENT', preset: 'music' })
      .expect(201);
  });

  it('refuses a file by its first bytes while the rest is still unsent', async () => {
    const cases: Array<[Record<string, string>, Buffer, string]> = [
      // Not audio at all.
      [{ purpose: 'track', service: 'AI_MASTERING' }, Buffer.alloc(200_000, 7), 'UPLOAD.AUDIO_FORMAT'],
      // A WAV whose header says 100 Hz (the lying header of issue 27).
      [{ purpose: 'track', service: 'AI_MASTERING' }, wavHeader(100, 40_000, 200_000), 'UPLOAD.SAMPLE_RATE'],
      // Eleven minutes, over mastering's ten.
      [{ purpose: 'track', service: 'AI_MASTERING' }, wavHeader(8_000, 11 * 60, 200_000), 'UPLOAD.TOO_LONG'],
      // Audio for the video preset.
      [
        { purpose: 'track', service: 'AUDIO_ENHANCEMENT', preset: 'video' },
        song.subarray(0, 200_000),
        'UPLOAD.INVALID_VIDEO_FORMAT',
      ],
    ];
    for (const [meta, head, code] of cases) {
      const length = 45 * 1024 * 1024;
      const created = await request(test.url)
        .post('/api/uploads')
        .set(auth())
        .set('Upload-Length', String(length))
        .set('Upload-Metadata', metadata(meta))
        .expect(201);
      const id = String(created.headers.location).split('/').pop()!;
      // 200 kB of a 45 MB file sent, and the answer comes: the rest is never needed.
      const answer = await patchThenHold(test.url, token, id, 0, head, 5_000, length);
      expect(answer).not.toBeNull();
      expect(answer!.status).toBe(400);
      expect(JSON.parse(answer!.body)).toMatchObject({ code });
      // A browser loses such an answer with its connection: asking for the upload again tells it (a header: HEAD has
      // no body), to its owner only.
      const again = await request(test.url).head(`/api/uploads/${id}`).set(auth()).expect(400);
      expect(JSON.parse(decodeURIComponent(String(again.headers['upload-refusal'])))).toMatchObject({ code });
      await request(test.url).head(`/api/uploads/${id}`).set(auth(other)).expect(404);
      expect(staged().filter((name) => name.startsWith(id))).toEqual([]);
    }
  });

  it('refuses at creation what its length or metadata already rule out', async () => {
    const create = (length: number, meta: Record<string, string>, headers: Record<string, string> = auth()) =>
      request(test.url)
        .post('/api/uploads')
        .set(headers)
        .set('Upload-Length', String(length))
        .set('Upload-Metadata', metadata(meta));
    expect(
      (await create(51 * 1024 * 1024, { purpose: 'track', service: 'AI_MASTERING' }).expect(413)).body,
    ).toMatchObject({
      code: 'UPLOAD.FILE_SIZE_MAX',
      details: { limitMb: 50 },
    });
    expect((await create(1000, { purpose: 'track', service: 'AI_MASTERING' }).expect(400)).body.code).toBe(
      'UPLOAD.FILE_SIZE_MIN',
    );
    expect((await create(2_000_000, { purpose: 'track', service: 'KARAOKE' }).expect(400)).body.code).toBe(
      'UPLOAD.INVALID_SERVICE',
    );
    expect((await create(2_000_000, { service: 'AI_MASTERING' }).expect(400)).body.code).toBe('UPLOAD.PURPOSE');
    const old = await create(
      2_000_000,
      { purpose: 'track', service: 'AI_MASTERING' },
      { Authorization: `Bearer ${token}` },
    ).expect(412);
    expect(old.headers['tus-version']).toBe('1.0.0');
    expect(old.body.code).toBe('UPLOAD.TUS_VERSION');
    await request(test.url).post('/api/uploads').set(TUS).set('Upload-Length', '2000000').expect(401);
    // The offset of an upload is no stranger's business either (HEAD routes are not in the route guard's test).
    const mine = await create(2_000_000, { purpose: 'track', service: 'AI_MASTERING' }).expect(201);
    await request(test.url).head(String(mine.headers.location)).set(TUS).expect(401);
    // A body the server reads (JSON) but not as the upload's bytes (application/offset+octet-stream): its own code.
    const typed = await request(test.url)
      .patch(String(mine.headers.location))
      .set({ Authorization: `Bearer ${token}`, ...TUS })
      .set('Upload-Offset', '0')
      .send({ bytes: 'no' })
      .expect(415);
    expect(typed.body.code).toBe('UPLOAD.CONTENT_TYPE');
  });

  it('keeps each account to its own uploads, and the offsets to the server’s', async () => {
    // An account with no job running (the tests above left theirs running).
    const token = await test.token('resumable-owner');
    const auth = (who = token) => ({ Authorization: `Bearer ${who}`, ...TUS });
    const created = await request(test.url)
      .post('/api/uploads')
      .set(auth())
      .set('Upload-Length', String(song.length))
      .set('Upload-Metadata', metadata({ purpose: 'track', service: 'AI_MASTERING' }))
      .expect(201);
    const path = String(created.headers.location);
    await request(test.url).head(path).set(auth(other)).expect(404);
    await request(test.url)
      .patch(path)
      .set(auth(other))
      .set('Content-Type', 'application/offset+octet-stream')
      .set('Upload-Offset', '0')
      .send(song.subarray(0, 1000))
      .expect(404);
    const conflict = await request(test.url)
      .patch(path)
      .set(auth())
      .set('Content-Type', 'application/offset+octet-stream')
      .set('Upload-Offset', '5')
      .send(song.subarray(5, 1000))
      .expect(409);
    expect(conflict.body).toMatchObject({ code: 'UPLOAD.OFFSET_MISMATCH', details: { offset: 0 } });
    // Not whole yet: no job.
    const early = await request(test.url)
      .post('/api/audio/upload')
      .set(auth())
      .send({ upload: path.split('/').pop(), service: 'AI_MASTERING' })
      .expect(409);
    expect(early.body.code).toBe('UPLOAD.INCOMPLETE');
    await request(test.url).delete(path).set(auth(other)).expect(404);
    await request(test.url).delete(path).set(auth()).expect(204);
    await request(test.url).head(path).set(auth()).expect(404);
  });

  it('takes a FLAC of a WAV for a job, under the WAV’s name and held to the WAV’s size limits', async () => {
    // 8 seconds: a 1.4 MB WAV, over mastering's 1 MB minimum, whose FLAC is under it.
    const wav = makeMedia(media.path).music(8, 'short.wav');
    const flacPath = join(media.path, 'short.flac');
    execFileSync(toolPath('ffmpeg'), ['-v', 'error', '-y', '-i', wav, '-c:a', 'flac', flacPath]);
    const flac = readFileSync(flacPath);
    expect(readFileSync(wav).length).toBeGreaterThan(1024 * 1024);
    expect(flac.length).toBeLessThan(1024 * 1024);
    // Another account: the first test's mastering is still running for this one.
    const flacUser = await test.token('resumable-flac');
    const meta = { purpose: 'track', service: 'AI_MASTERING', filename: 'short.wav', encoding: 'flac' };
    const id = await tusUpload(test.url, flacUser, flac, meta);
    const created = await request(test.url)
      .post('/api/audio/upload')
      .set(auth(flacUser))
      .send({ upload: id, service: 'AI_MASTERING' })
      .expect(201);
    expect(created.body).toMatchObject({ filename: 'short.wav', format: 'flac' });
    // The WAV it stands for is what counts: the FLAC of a WAV too small for stems is refused by its first bytes.
    const tiny = join(media.path, 'tiny.flac');
    execFileSync(toolPath('ffmpeg'), ['-v', 'error', '-y', '-i', wav, '-t', '3', '-c:a', 'flac', tiny]);
    const refused = await tusUpload(test.url, flacUser, readFileSync(tiny), {
      ...meta,
      service: 'STEM_SEPARATION',
    }).then(
      () => null,
      (error: tus.DetailedError) => error.originalResponse,
    );
    expect(refused?.getStatus()).toBe(400);
    expect(JSON.parse(refused!.getBody())).toMatchObject({ code: 'UPLOAD.FILE_SIZE_MIN' });
  });
});

describe('resumable uploads for a mix', () => {
  let test: TestApp;
  let token: string;
  const media = tempDir();
  beforeAll(async () => {
    test = await startTestApp();
    token = await test.token('resumable-mixer');
  }, 60_000);
  afterAll(async () => {
    await test.close();
    media.cleanup();
  });

  it('adds the WAVs sent by the protocol to a session with their settings, and refuses anything else by its first bytes', async () => {
    const auth = { Authorization: `Bearer ${token}`, ...TUS };
    const made = makeMedia(media.path);
    const drums = readFileSync(made.music(6, 'drums.wav'));
    const bass = readFileSync(made.music(5, 'bass.wav'));
    const session = await request(test.url)
      .post('/api/mixing/sessions/create')
      .set(auth)
      .send({ name: 'Sunu mix' })
      .expect(201);
    const sessionId = session.body.id ?? session.body.session?.id;
    const ids = [
      await tusUpload(test.url, token, drums, { purpose: 'mix-track', filename: 'drums.wav' }),
      await tusUpload(test.url, token, bass, { purpose: 'mix-track', filename: 'bass.wav' }),
    ];
    const added = await request(test.url)
      .post(`/api/mixing/sessions/${sessionId}/tracks/batch`)
      .set(auth)
      .send({ uploads: ids, settings: [{ fileName: 'bass.wav', instrumentGroup: 'kick' }] })
      .expect(201);
    const tracks = added.body.session.tracks as Array<{ filename: string; instrumentGroup: string }>;
    expect(tracks.map((track) => track.filename).sort()).toEqual(['bass.wav', 'drums.wav']);
    expect(tracks.find((track) => track.filename === 'bass.wav')?.instrumentGroup).toBe('kick');
    // Each upload makes one track: sending the same ids again finds nothing.
    const again = await request(test.url)
      .post(`/api/mixing/sessions/${sessionId}/tracks/batch`)
      .set(auth)
      .send({ uploads: ids })
      .expect(404);
    expect(again.body.code).toBe('UPLOAD.NOT_FOUND');
    // An MP3 for a mix: refused by its first bytes.
    const mp3 = join(media.path, 'lead.mp3');
    execFileSync(toolPath('ffmpeg'), ['-v', 'error', '-y', '-i', made.music(5, 'lead.wav'), mp3]);
    const refused = await tusUpload(test.url, token, readFileSync(mp3), {
      purpose: 'mix-track',
      filename: 'lead.mp3',
    }).then(
      () => null,
      (error: tus.DetailedError) => error.originalResponse,
    );
    expect(JSON.parse(refused!.getBody())).toMatchObject({ code: 'UPLOAD.FILE_FORMAT' });
  });
});
