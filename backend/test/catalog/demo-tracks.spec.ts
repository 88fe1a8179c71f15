import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registeredUser, type TestUser } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

interface Listed {
  tracks: Array<{
    id: string;
    service: string;
    status: string;
    isDemo: boolean;
    unlocked: boolean;
    masterUrl: string | null;
    previewUrl: string | null;
    stems: Record<string, string>;
  }>;
  totalCount: number;
}

describe('demo tracks', () => {
  let test: TestApp;
  let first: TestUser;

  async function demosOf(user: TestUser, timeoutMs = 120_000): Promise<Listed['tracks']> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const listed = (await request(test.url).get('/api/audio/tracks?isDemo=true&limit=10').set(user.auth).expect(200))
        .body as Listed;
      if (listed.totalCount === 3) return listed.tracks;
      if (Date.now() > deadline) throw new Error(`only ${listed.totalCount} demo tracks`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  beforeAll(async () => {
    test = await startTestApp({ realAuth: true, env: { DEMO_TRACKS: 'on' } });
    first = await registeredUser(test, { email: 'awa@example.sn' });
  }, 60_000);
  afterAll(() => test.close());

  it('gives a new account one processed, unlocked demo per service, hidden from the recent list', async () => {
    const demos = await demosOf(first);
    const byService = Object.fromEntries(demos.map((track) => [track.service, track]));
    expect(byService.AI_MASTERING).toMatchObject({ status: 'MASTER_READY', isDemo: true, unlocked: true });
    expect(byService.AUDIO_ENHANCEMENT).toMatchObject({ status: 'MASTER_READY', unlocked: true });
    expect(byService.STEM_SEPARATION).toMatchObject({ status: 'MASTER_READY', unlocked: true });
    expect(Object.keys(byService.STEM_SEPARATION!.stems)).toEqual(['vocals', 'drums', 'bass', 'other', 'original']);
    await request(test.url)
      .get(byService.STEM_SEPARATION!.stems.original!)
      .set(first.auth)
      .expect(200)
      .expect('Content-Type', 'audio/wav');
    await request(test.url)
      .get(byService.AI_MASTERING!.masterUrl!)
      .set(first.auth)
      .expect(200)
      .expect('Content-Type', 'audio/wav');
    const vocals = byService.STEM_SEPARATION!.stems.vocals!;
    await request(test.url).get(vocals).set(first.auth).set('Range', 'bytes=0-1023').expect(206);
    expect((await request(test.url).get('/api/audio/tracks').set(first.auth)).body.totalCount).toBe(0);
    // Nor are they in the media library, and no new job starts from one.
    expect((await request(test.url).get('/api/audio/library').set(first.auth).expect(200)).body.tracks).toEqual([]);
    const refused = await request(test.url)
      .post(`/api/audio/track/${byService.AI_MASTERING!.id}/reprocess`)
      .set(first.auth)
      .send({ service: 'AUDIO_ENHANCEMENT' })
      .expect(404);
    expect(refused.body.code).toBe('TRACKS.NOT_FOUND');
  }, 180_000);

  it('reuses the material for the next accounts, and deleting one demo spares the others', async () => {
    const second = await registeredUser(test, { email: 'kofi@example.tg' });
    const started = Date.now();
    const demos = await demosOf(second, 30_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    const mastering = demos.find((track) => track.service === 'AI_MASTERING')!;
    await request(test.url).delete(`/api/audio/${mastering.id}`).set(second.auth).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const firstMastering = (await demosOf(first)).find((track) => track.service === 'AI_MASTERING')!;
    await request(test.url).get(firstMastering.masterUrl!).set(first.auth).expect(200);
  }, 60_000);
});
