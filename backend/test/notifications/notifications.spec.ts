import { CommandBus } from '@nestjs/cqrs';
import { EventStore, ProjectionRunner } from '@kora/kernel';
import { SendNotification } from '@kora/notifications';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitUntil } from '../contracts/event-store.contract';
import { registeredUser, type TestUser } from '../support/accounts';
import { makeMedia } from '../support/media';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

describe('push notifications', () => {
  let test: TestApp;
  let awa: TestUser;
  let kofi: TestUser;
  let socket: Socket;
  const received: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    test = await startTestApp({ realAuth: true });
    awa = await registeredUser(test, { email: 'awa@example.sn' });
    kofi = await registeredUser(test, { email: 'kofi@example.tg' });
    socket = io(test.url, { auth: { token: awa.token }, transports: ['websocket'], reconnection: false });
    socket.on('notification.created', (message: Record<string, unknown>) => received.push(message));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
  });
  afterAll(async () => {
    socket.disconnect();
    await test.close();
  });

  /** Waits until the read models have caught up with the log. */
  const settled = async (): Promise<void> => {
    const head = await test.app.get(EventStore).headPosition();
    expect(await test.app.get(ProjectionRunner).waitFor(head)).toBe(true);
  };

  const send = (userId: string, cause: string, trackId: string | null = 'track-1') =>
    test.app
      .get(CommandBus)
      .execute<SendNotification, string | null>(
        new SendNotification(
          userId,
          'PREVIEW_READY',
          { en: 'Your preview is ready', fr: 'Votre aperçu est prêt' },
          { en: 'Listen to it now.', fr: 'Écoutez-le maintenant.' },
          trackId,
          cause,
        ),
      );

  it('sends a notification once per cause, lists it unread and pushes it to the owner only', async () => {
    const id = await send(awa.userId, 'event-1');
    expect(await send(awa.userId, 'event-1')).toBeNull();
    await waitUntil(() => received.length === 1);
    expect(received[0]).toMatchObject({
      id,
      kind: 'PREVIEW_READY',
      status: 'SENT',
      i18n: { en: { title: 'Your preview is ready' }, fr: { title: 'Votre aperçu est prêt' } },
      position: expect.any(Number),
    });
    await settled();
    const list = await request(test.url).get('/api/notifications?type=PUSH&lang=en').set(awa.auth).expect(200);
    expect(list.body.unreadCount).toBe(1);
    expect(list.body.notifications).toEqual([
      expect.objectContaining({
        id,
        title: 'Your preview is ready',
        message: 'Listen to it now.',
        status: 'SENT',
        type: 'PUSH',
      }),
    ]);
    expect((await request(test.url).get('/api/notifications?type=PUSH').set(kofi.auth)).body.notifications).toEqual([]);
  });

  it('marks a notification read, idempotently, and only for its owner', async () => {
    const id = await send(awa.userId, 'event-2');
    await settled();
    await request(test.url).patch(`/api/notifications/${id}/read`).set(kofi.auth).expect(404);
    await request(test.url).patch(`/api/notifications/${id}/read`).set(awa.auth).expect(200);
    await request(test.url).patch(`/api/notifications/${id}/read`).set(awa.auth).expect(200);
    const list = await request(test.url).get('/api/notifications?type=PUSH').set(awa.auth).expect(200);
    expect(list.body.notifications.find((n: { id: string }) => n.id === id).status).toBe('READ');
    await request(test.url).patch('/api/notifications/nope/read').set(awa.auth).expect(404);
  });

  it('records an acknowledgement once per track and type, for the user’s own tracks only', async () => {
    const media = tempDir('kora-media-');
    const uploaded = await request(test.url)
      .post('/api/audio/upload')
      .set(awa.auth)
      .field('service', 'AI_MASTERING')
      .attach('file', makeMedia(media.path).music(8))
      .expect(201);
    media.cleanup();
    const body = { trackId: uploaded.body.id as string, notificationType: 'PREVIEW_READY' };
    expect(
      (await request(test.url).post('/api/notifications/acknowledge').set(awa.auth).send(body).expect(200)).body,
    ).toEqual({
      success: true,
      acknowledged: true,
    });
    expect(
      (await request(test.url).post('/api/notifications/acknowledge').set(awa.auth).send(body).expect(200)).body,
    ).toEqual({
      success: true,
      acknowledged: false,
    });
    const refused = await request(test.url)
      .post('/api/notifications/acknowledge')
      .set(awa.auth)
      .send({ notificationType: 'HELLO' })
      .expect(400);
    expect(refused.body.fields).toEqual({
      trackId: 'NOTIFICATIONS.TRACK_ID_REQUIRED',
      notificationType: 'NOTIFICATIONS.INVALID_TYPE',
    });

    // Another user's track, or no track at all: not found, and nothing recorded.
    const store = test.app.get(EventStore);
    const head = await store.headPosition();
    for (const [user, trackId] of [
      [kofi, body.trackId],
      [awa, '01a2b3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b'],
    ] as const) {
      const missing = await request(test.url)
        .post('/api/notifications/acknowledge')
        .set(user.auth)
        .send({ trackId, notificationType: 'PREVIEW_READY' })
        .expect(404);
      expect(missing.body.code).toBe('TRACKS.NOT_FOUND');
    }
    const since = await store.readAll({ after: head, maxCount: 100 });
    expect(since.events.filter((event) => event.type === 'NotificationAcknowledged')).toEqual([]);
  });
});
