import { EventStore, ProjectionRunner, toAppend, uuidv7 } from '@kora/kernel';
import { type MixEvent, mixStream } from '@kora/mixing/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registeredUser, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

interface Card {
  id: string;
  kind?: string;
  service: string;
  filename: string;
  status: string;
  mode?: string | null;
  trackCount?: number;
  unlocked: boolean;
}

/**
 * The recent tracks list (`GET /api/audio/tracks`) as the studio shows it: the user's tracks and mixing sessions
 * together, newest first, each separation with its stem mode, and a job the user stopped told apart from a failure.
 */
describe('the recent tracks list: mixes, stem modes, cancelled jobs', () => {
  let test: TestApp;
  let awa: TestUser;
  let kofi: TestUser;
  const media = tempDir('kora-media-');
  const files = makeMedia(media.path);

  beforeAll(async () => {
    test = await startTestApp({ realAuth: true });
    awa = await registeredUser(test, { email: 'awa@example.sn' });
    kofi = await registeredUser(test, { email: 'kofi@example.tg' });
  }, 60_000);
  afterAll(async () => {
    await test.close();
    media.cleanup();
  });

  const list = async (user: TestUser, query = 'page=1&limit=10'): Promise<{ tracks: Card[]; totalCount: number }> =>
    (await request(test.url).get(`/api/audio/tracks?${query}`).set(user.auth).expect(200)).body;

  /** A mixing session recorded on the log as the mixing module records it, `at` the instant of its events. */
  async function seedMix(user: TestUser, name: string, at: Date, then: MixEvent[]): Promise<string> {
    const sessionId = uuidv7();
    const context = {
      userId: user.userId,
      correlationId: 'seed',
      causationId: 'seed',
      clock: { now: () => at },
      ids: { newId: uuidv7 },
    };
    const track = (trackId: string, filename: string) => ({
      trackId,
      filename,
      fileKey: `mixes/${sessionId}/${trackId}`,
      fileSize: 1_000_000,
      durationSec: 10,
      sampleRate: 44_100,
      channels: 2,
      settings: {
        instrumentGroup: 'other',
        presenceSetting: 'NORMAL' as const,
        panPreference: 'NO_PREFERENCE' as const,
        reverbPreference: 'NONE' as const,
      },
    });
    const events: MixEvent[] = [
      {
        type: 'MixSessionCreated',
        data: { sessionId, ownerId: user.userId, name, mixingStyle: 'POP', sampleRate: 44100 },
      } as MixEvent,
      { type: 'MixTrackAdded', data: track(uuidv7(), 'kick.wav') } as MixEvent,
      { type: 'MixTrackAdded', data: track(uuidv7(), 'vocal.wav') } as MixEvent,
      { type: 'MixTrackAdded', data: track(uuidv7(), 'bass.wav') } as MixEvent,
      ...then,
    ];
    const appended = await test.app
      .get(EventStore)
      .append(mixStream(sessionId), toAppend(events as never, context), 'no_stream');
    await test.app.get(ProjectionRunner).waitFor(appended.position);
    return sessionId;
  }

  it('lists a paid mix with its own card: name, number of tracks, status and unlocked', async () => {
    const mixId = await seedMix(awa, 'Sabar <b>night</b>', new Date(), [
      { type: 'MixRequested', data: { jobId: 'job-1' } } as MixEvent,
      {
        type: 'MixReady',
        data: { jobId: 'job-1', files: { mix: 'k' }, processingSeconds: 3, durationSec: 10 },
      } as MixEvent,
      { type: 'MixUnlocked', data: { via: 'payment' } } as MixEvent,
    ]);
    const { tracks, totalCount } = await list(awa);
    expect(totalCount).toBe(1);
    expect(tracks).toEqual([
      expect.objectContaining({
        kind: 'mix',
        id: mixId,
        service: 'AI_MIXING',
        name: 'Sabar night',
        filename: 'Sabar night',
        trackCount: 3,
        status: 'COMPLETED',
        unlocked: true,
        isDemo: false,
      }),
    ]);
    // Asked for AI_MIXING alone, and found by its name; another user sees nothing of it.
    expect((await list(awa, 'page=1&limit=10&service=AI_MIXING')).tracks.map((card) => card.id)).toEqual([mixId]);
    expect((await list(awa, 'page=1&limit=10&search=SABAR')).tracks.map((card) => card.id)).toEqual([mixId]);
    expect((await list(awa, 'page=1&limit=10&search=zouk')).totalCount).toBe(0);
    expect((await list(awa, 'page=1&limit=10&service=AI_MASTERING')).totalCount).toBe(0);
    expect(await list(kofi)).toMatchObject({ tracks: [], totalCount: 0 });
  });

  it('shows each separation with its stem mode, and a job the user cancelled as CANCELLED, not FAILED', async () => {
    const song = files.music(8, 'mixture.wav');
    const upload = (mode: string) =>
      request(test.url)
        .post('/api/audio/upload')
        .set(kofi.auth)
        .field('service', 'STEM_SEPARATION')
        .field('mode', mode)
        .attach('file', song)
        .expect(201);
    const ids: Record<string, string> = {};
    for (const mode of ['vocals', 'drums']) {
      const id = (await upload(mode)).body.id as string;
      ids[mode] = id;
      // Stopped at once (a second separation cannot start while one runs).
      await request(test.url).post(`/api/audio/track/${id}/cancel`).set(kofi.auth).expect(200);
    }
    const { tracks } = await list(kofi);
    const byId = new Map(tracks.map((card) => [card.id, card]));
    for (const mode of ['vocals', 'drums']) {
      expect(byId.get(ids[mode]!)).toMatchObject({
        filename: 'mixture.wav',
        service: 'STEM_SEPARATION',
        mode,
        status: 'CANCELLED',
      });
    }
    const status = await request(test.url).get(`/api/audio/track/${ids.vocals}/status`).set(kofi.auth).expect(200);
    expect(status.body).toMatchObject({ status: 'CANCELLED', errorCode: 'PROCESSING.CANCELLED' });
    // Cancelled is not in progress: nothing is left to cancel.
    await request(test.url).post(`/api/audio/track/${ids.vocals}/cancel`).set(kofi.auth).expect(409);
  }, 60_000);

  it('lists a cancelled mix as CANCELLED', async () => {
    const mixId = await seedMix(kofi, 'Abidjan', new Date(), [
      { type: 'MixRequested', data: { jobId: 'job-2' } } as MixEvent,
      { type: 'MixCancelled', data: { jobId: 'job-2' } } as MixEvent,
    ]);
    const card = (await list(kofi)).tracks.find((item) => item.id === mixId);
    expect(card).toMatchObject({ kind: 'mix', status: 'CANCELLED', unlocked: false, trackCount: 3 });
    const status = await request(test.url).get(`/api/mixing/sessions/${mixId}/status`).set(kofi.auth).expect(200);
    expect(status.body.status).toBe('CANCELLED');
  });

  it('pages tracks and mixes together, newest first, with one count', async () => {
    const ines = await registeredUser(test, { email: 'ines@example.fr' });
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
    // Tracks at minutes 0, 2, 4, 6, 8 (seeded as the audio module records an upload), mixes at 1, 5, 9.
    const events = test.app.get(EventStore);
    let position = 0;
    for (const minute of [0, 2, 4, 6, 8]) {
      const trackId = uuidv7();
      const context = {
        userId: ines.userId,
        correlationId: 'seed',
        causationId: 'seed',
        clock: { now: () => at(minute) },
        ids: { newId: uuidv7 },
      };
      const appended = await events.append(
        `track-${trackId}`,
        toAppend(
          [
            {
              type: 'TrackUploaded',
              data: {
                trackId,
                ownerId: ines.userId,
                service: 'AI_MASTERING',
                filename: `t${minute}.wav`,
                format: 'wav',
                contentType: 'audio/wav',
                fileSize: 2_000_000,
                durationSec: 60,
                sampleRate: 44_100,
                channels: 2,
                isVideo: false,
                isDemo: false,
                originalKey: `tracks/${trackId}/original`,
              },
            },
          ],
          context,
        ),
        'no_stream',
      );
      position = appended.position;
    }
    await test.app.get(ProjectionRunner).waitFor(position);
    for (const minute of [1, 5, 9]) await seedMix(ines, `m${minute}`, at(minute), []);

    const names = async (page: number, limit: number) => {
      const body = await list(ines, `page=${page}&limit=${limit}`);
      expect(body.totalCount).toBe(8);
      return body.tracks.map((card) => card.filename);
    };
    const all = ['m9', 't8.wav', 't6.wav', 'm5', 't4.wav', 't2.wav', 'm1', 't0.wav'];
    expect(await names(1, 10)).toEqual(all);
    for (const limit of [1, 2, 3, 4]) {
      const pages: string[] = [];
      for (let page = 1; page <= Math.ceil(8 / limit) + 1; page += 1) pages.push(...(await names(page, limit)));
      expect(pages).toEqual(all);
    }
  });
});
