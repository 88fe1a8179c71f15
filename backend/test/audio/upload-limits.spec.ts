import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app';

const MB = 1024 * 1024;

/**
 * The fault that ended the process: an upload past its service's limit with the form's fields first (as browsers
 * and curl send them) left the blob store's rejection unhandled. Every error path is now answered; an unhandled
 * rejection here fails the run. The real-process version is `npm run test:faults`.
 */
describe('uploads past their limit', () => {
  let test: TestApp;
  let auth: { Authorization: string };
  beforeAll(async () => {
    test = await startTestApp();
    auth = { Authorization: `Bearer ${await test.token('limits-user')}` };
  });
  afterAll(() => test.close());

  it('are answered 413 upload.fileSizeMax with the limit, fields before the file, and nothing stays', async () => {
    for (const [service, limitMb] of [
      ['AI_MASTERING', 50],
      ['STEM_SEPARATION', 50],
    ] as const) {
      const response = await request(test.url)
        .post('/api/audio/upload')
        .set(auth)
        .field('service', service)
        .attach('file', Buffer.alloc(51 * MB), 'big.wav')
        .expect(413);
      expect(response.body).toMatchObject({ code: 'upload.fileSizeMax', details: { limitMb } });
    }
    const created = await request(test.url)
      .post('/api/mixing/sessions/create')
      .set(auth)
      .send({ name: 'limits' })
      .expect(201);
    const response = await request(test.url)
      .post(`/api/mixing/sessions/${created.body.session.id}/tracks`)
      .set(auth)
      .attach('file', Buffer.alloc(101 * MB), 'big.wav')
      .expect(413);
    expect(response.body.code).toBe('upload.fileSizeMax');
    await request(test.url).get('/api/health').expect(200);
    const tracks = join(test.dataDir, 'blobs', 'tracks');
    expect(existsSync(tracks) ? readdirSync(tracks) : []).toEqual([]);
  }, 60_000);
});
