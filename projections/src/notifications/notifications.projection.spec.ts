import { describe, it } from '@jest/globals';
import { notificationsStream } from '@kora/notifications/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import type { NotificationDocument, NotificationEvent } from '@kora/notifications/contracts';
import { notificationsProjection } from './notifications.projection';

const givenEvents = ProjectionSpecification.for(notificationsProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const stream = notificationsStream('u1');

const sent = (notificationId: string): NotificationEvent => ({
  type: 'NotificationSent',
  data: {
    notificationId,
    type: 'PUSH',
    kind: 'PREVIEW_READY',
    title: { en: 'Your preview is ready', fr: 'Votre aperçu est prêt' },
    message: { en: 'song.wav is ready to hear', fr: 'song.wav est prêt à écouter' },
    trackId: 't1',
    causationId: `cause-${notificationId}`,
  },
});
const document = (notificationId: string): NotificationDocument => ({
  _id: notificationId,
  userId: 'u1',
  type: 'PUSH',
  kind: 'PREVIEW_READY',
  title: { en: 'Your preview is ready', fr: 'Votre aperçu est prêt' },
  message: { en: 'song.wav is ready to hear', fr: 'song.wav est prêt à écouter' },
  trackId: 't1',
  status: 'SENT',
  createdAt: T0,
  readAt: null,
});

describe('the notifications read model', () => {
  it('lists a sent notification as unread, for the account whose stream it is on', () => {
    const log = eventLog<NotificationEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(stream, sent('n1'))).thenDocument('n1', document('n1'));
  });

  it('keeps one document per notification', () => {
    const log = eventLog<NotificationEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(stream, sent('n1')), log.record(stream, sent('n2'))).thenDocuments([
      document('n1'),
      document('n2'),
    ]);
  });

  it('marks a notification read, with when', () => {
    const log = eventLog<NotificationEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(stream, sent('n1')),
      log.record(stream, { type: 'NotificationRead', data: { notificationId: 'n1' } }, { occurredAt: T1 }),
    ).thenDocument('n1', { ...document('n1'), status: 'READ', readAt: T1 });
  });

  it('makes no document for a read notification it never saw sent', () => {
    const log = eventLog<NotificationEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(stream, { type: 'NotificationRead', data: { notificationId: 'n9' } })).thenDocuments([]);
  });

  it('leaves the list as it is when a result is acknowledged', () => {
    const log = eventLog<NotificationEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(stream, sent('n1')),
      log.record(stream, {
        type: 'NotificationAcknowledged',
        data: { trackId: 't1', notificationType: 'PREVIEW_READY' },
      }),
    ).thenDocuments([document('n1')]);
  });

  it('changes nothing when an event is applied twice', () => {
    const log = eventLog<NotificationEvent>({ userId: 'u1', occurredAt: T0 });
    const notification = log.record(stream, sent('n1'));
    const read = log.record(stream, { type: 'NotificationRead', data: { notificationId: 'n1' } }, { occurredAt: T1 });
    givenEvents(notification, read, notification).thenDocument('n1', { ...document('n1'), status: 'READ', readAt: T1 });
  });
});
