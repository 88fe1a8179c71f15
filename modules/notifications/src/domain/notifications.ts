import type { Decider } from '@kora/kernel';
import type { NotificationEvent, NotificationKind } from '../contracts/events';
import { NotificationNotFoundError } from './errors';

/** What decisions need: which notifications exist and are read, and what was acknowledged. */
export interface InboxState {
  unread: Set<string>;
  read: Set<string>;
  acknowledged: Set<string>;
}

export type InboxCommand =
  | { type: 'MarkRead'; notificationId: string }
  | { type: 'Acknowledge'; trackId: string; notificationType: NotificationKind };

const ackKey = (trackId: string, kind: string): string => `${trackId}:${kind}`;

export const inboxDecider: Decider<InboxCommand, NotificationEvent, InboxState> = {
  initialState: () => ({ unread: new Set(), read: new Set(), acknowledged: new Set() }),
  evolve(state, event) {
    switch (event.type) {
      case 'NotificationSent':
        return { ...state, unread: new Set(state.unread).add(event.data.notificationId) };
      case 'NotificationRead': {
        const unread = new Set(state.unread);
        unread.delete(event.data.notificationId);
        return { ...state, unread, read: new Set(state.read).add(event.data.notificationId) };
      }
      case 'NotificationAcknowledged':
        return {
          ...state,
          acknowledged: new Set(state.acknowledged).add(ackKey(event.data.trackId, event.data.notificationType)),
        };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'MarkRead':
        if (state.read.has(command.notificationId)) return [];
        if (!state.unread.has(command.notificationId)) throw new NotificationNotFoundError();
        return [{ type: 'NotificationRead', data: { notificationId: command.notificationId } }];
      case 'Acknowledge':
        if (state.acknowledged.has(ackKey(command.trackId, command.notificationType))) return [];
        return [
          {
            type: 'NotificationAcknowledged',
            data: { trackId: command.trackId, notificationType: command.notificationType },
          },
        ];
    }
  },
};
