import { EventStore, ProjectionRunner, toAppend, uuidv7 } from '@kora/kernel';
import { trackStream } from '@kora/audio/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The track list answers from pages cached by the read model's checkpoint, read once per turn of the event loop and
 * shared by the requests of that turn. Under a load of concurrent list requests, the list asked for right after a
 * deletion's answer never shows the deleted track (read-your-writes).
 */
describe('the track list under load', () => {
  let test: TestApp;
  let auth: { Authorization: string };
  const ids: string[] = [];
  beforeAll(async () => {
    test = await startTestApp();
    const userId = 'list-cache-user';
    auth = { Authorization: `Bearer ${await test.token(userId)}` };
    const events = test.app.get(EventStore);
    let position = 0;
    for (let index = 0; index < 12; index += 1) {
      const trackId = uuidv7();
      ids.push(trackId);
      const context = {
        userId,
        correlationId: 't',
        causationId: 't',
        clock: { now: () => new Date() },
        ids: { newId: uuidv7 },
      };
      const appended = await events.append(
        trackStream(trackId),
        toAppend(
          [
            {
              type: 'TrackUploaded',
              data: {
                trackId,
                ownerId: userId,
                service: 'AI_MASTERING',
                filename: `Song ${index}.wav`,
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
  });
  afterAll(() => test.close());

  it('never shows a track in the list asked for after its deletion was answered', async () => {
    const list = async (): Promise<string[]> =>
      (await request(test.url).get('/api/audio/tracks?page=1&limit=100').set(auth).expect(200)).body.tracks.map(
        (track: { id: string }) => track.id,
      );
    expect((await list()).sort()).toEqual([...ids].sort());
    let loading = true;
    const load = Array.from({ length: 16 }, async () => {
      while (loading) await list();
    });
    try {
      for (const [index, id] of ids.slice(0, 8).entries()) {
        await request(test.url).delete(`/api/audio/${id}`).set(auth).expect(200);
        const listed = await list();
        expect(listed).not.toContain(id);
        expect(listed).toHaveLength(ids.length - index - 1);
      }
    } finally {
      loading = false;
      await Promise.all(load);
    }
  }, 60_000);
});
