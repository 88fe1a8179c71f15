import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeMedia } from '../support/media';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

/** Mastering's intensity and loudness target, chosen on the upload form and carried to the engine. */
describe('mastering options on upload', () => {
  let test: TestApp;
  let auth: { Authorization: string };
  const media = tempDir('kora-mastering-options-');
  let music: string;
  let reference: string;

  beforeAll(async () => {
    const files = makeMedia(media.path);
    music = files.music(8);
    reference = files.mp3(6, 'reference.mp3');
    test = await startTestApp();
    auth = { Authorization: `Bearer ${await test.token('mastering-options-user')}` };
  }, 60_000);
  afterAll(async () => {
    await test.close();
    media.cleanup();
  });

  const upload = (fields: Record<string, string>, extra: Array<[string, string | Buffer, string?]> = []) => {
    let call = request(test.url).post('/api/audio/upload').set(auth);
    for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
    for (const [field, file, name] of extra) call = call.attach(field, file, name);
    return call.attach('file', music);
  };

  interface Report {
    settings: { intensity: string; targetLufs: number; targetSource: string; reference: string | null };
    reference: { integratedLufs: number } | null;
  }

  async function report(trackId: string): Promise<Report> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await request(test.url).get(`/api/audio/track/${trackId}/status`).set(auth).expect(200);
      if (status.body.status === 'PREVIEW_READY') break;
      if (status.body.status === 'FAILED' || Date.now() > deadline) throw new Error(`track ${status.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answer = await request(test.url)
      .get(`/api/audio/track/${trackId}/stream/report`)
      .set(auth)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => done(null, text));
      })
      .expect(200);
    return JSON.parse(answer.body as string);
  }

  it('refuses an unknown intensity or target with a 400 and its code, storing nothing', async () => {
    for (const [fields, code] of [
      [{ service: 'AI_MASTERING', intensity: 'extreme' }, 'UPLOAD.INVALID_INTENSITY'],
      [{ service: 'AI_MASTERING', target: 'tiktok' }, 'UPLOAD.INVALID_TARGET'],
      [{ service: 'AI_MASTERING', target: '-14' }, 'UPLOAD.INVALID_TARGET'],
    ] as const) {
      const answer = await upload(fields).expect(400);
      expect(answer.body).toMatchObject({ statusCode: 400, code });
    }
    const list = await request(test.url).get('/api/audio/tracks').set(auth).expect(200);
    expect(list.body.totalCount).toBe(0);
  });

  it('refuses a reference that is not audio, a reference outside mastering, and two files', async () => {
    const junk = Buffer.alloc(4096, 7);
    for (const [fields, extra, code] of [
      [{ service: 'AI_MASTERING' }, [['reference', junk, 'reference.wav']], 'UPLOAD.INVALID_REFERENCE'],
      [{ service: 'STEM_SEPARATION' }, [['reference', reference]], 'UPLOAD.INVALID_REFERENCE'],
      [{ service: 'AI_MASTERING' }, [['file', music]], 'UPLOAD.TOO_MANY_FILES'],
    ] as const) {
      const answer = await upload(fields, extra as unknown as Array<[string, string | Buffer, string?]>).expect(400);
      expect(answer.body).toMatchObject({ statusCode: 400, code });
    }
    const list = await request(test.url).get('/api/audio/tracks').set(auth).expect(200);
    expect(list.body.totalCount).toBe(0);
  });

  it('matches a reference track: its loudness without a target, the chosen target with one', async () => {
    const matched = await upload({ service: 'AI_MASTERING' }, [['reference', reference]]).expect(201);
    const byReference = await report(matched.body.id);
    expect(byReference.settings.targetSource).toBe('reference');
    expect(byReference.settings.reference).not.toBeNull();
    expect(byReference.settings.targetLufs).toBeCloseTo(byReference.reference!.integratedLufs, 1);

    const withTarget = await upload({ service: 'AI_MASTERING', target: 'club' }, [['reference', reference]]).expect(
      201,
    );
    const both = await report(withTarget.body.id);
    expect(both.settings).toMatchObject({ targetLufs: -9, targetSource: 'preset' });
    expect(both.settings.reference).not.toBeNull();
  }, 120_000);

  it('masters with the chosen intensity and target, and with medium at -14 LUFS when none is chosen', async () => {
    const chosen = await upload({ service: 'AI_MASTERING', intensity: 'high', target: 'apple' }).expect(201);
    const withChoice = await report(chosen.body.id);
    expect(withChoice.settings).toMatchObject({ intensity: 'high', targetLufs: -16 });

    const plain = await upload({ service: 'AI_MASTERING' }).expect(201);
    const withDefaults = await report(plain.body.id);
    expect(withDefaults.settings).toMatchObject({ intensity: 'medium', targetLufs: -14 });
  }, 120_000);
});
