import { describe, it } from '@jest/globals';
import { DeciderSpecification } from '@kora/kernel/testing';
import type { NotificationEvent } from '../contracts/events';
import { NotificationNotFoundError } from './errors';
import { inboxDecider } from './notifications';

const given = DeciderSpecification.for(inboxDecider);

const sent = (notificationId: string): NotificationEvent => ({
  type: 'NotificationSent',
  data: {
    notificationId,
    type: 'PUSH',
    kind: 'PREVIEW_READY',
    title: { en: 'Your preview is ready', fr: 'Votre aperçu est prêt' },
    message: { en: 'song.wav', fr: 'song.wav' },
    trackId: 't1',
    causationId: `cause-${notificationId}`,
  },
});
const read = (notificationId: string): NotificationEvent => ({ type: 'NotificationRead', data: { notificationId } });
const acknowledged: NotificationEvent = {
  type: 'NotificationAcknowledged',
  data: { trackId: 't1', notificationType: 'PREVIEW_READY' },
};

describe('marking a notification read', () => {
  it('records an unread notification as read', () => {
    given([sent('n1')])
      .when({ type: 'MarkRead', notificationId: 'n1' })
      .then([read('n1')]);
  });

  it('records nothing for a notification already read', () => {
    given([sent('n1'), read('n1')])
      .when({ type: 'MarkRead', notificationId: 'n1' })
      .thenNothingHappened();
  });

  it('marks only the notification named', () => {
    given([sent('n1'), sent('n2'), read('n1')])
      .when({ type: 'MarkRead', notificationId: 'n2' })
      .then([read('n2')]);
  });

  it('refuses a notification the user never received', () => {
    given([sent('n1')])
      .when({ type: 'MarkRead', notificationId: 'n9' })
      .thenThrows(NotificationNotFoundError);
  });

  it('refuses on an empty inbox, with a 404 code', () => {
    given([]).when({ type: 'MarkRead', notificationId: 'n1' }).thenThrows('NOTIFICATIONS.NOT_FOUND');
  });
});

describe('acknowledging a result', () => {
  it('records that the user saw the result a notification announced', () => {
    given([sent('n1')])
      .when({ type: 'Acknowledge', trackId: 't1', notificationType: 'PREVIEW_READY' })
      .then([acknowledged]);
  });

  it('acknowledges once per track and kind', () => {
    given([sent('n1'), acknowledged])
      .when({ type: 'Acknowledge', trackId: 't1', notificationType: 'PREVIEW_READY' })
      .thenNothingHappened();
  });

  it('acknowledges another kind for the same track separately', () => {
    given([sent('n1'), acknowledged])
      .when({ type: 'Acknowledge', trackId: 't1', notificationType: 'MASTER_READY' })
      .then([{ type: 'NotificationAcknowledged', data: { trackId: 't1', notificationType: 'MASTER_READY' } }]);
  });

  it('needs no notification to acknowledge: the client may see the result first', () => {
    given([])
      .when({ type: 'Acknowledge', trackId: 't2', notificationType: 'STEMS_READY' })
      .then([{ type: 'NotificationAcknowledged', data: { trackId: 't2', notificationType: 'STEMS_READY' } }]);
  });
});
