import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { AppNotification } from '@kora/contracts';
import type { RecordedEvent } from '@kora/kernel';
import { RealtimeRegistry } from '@kora/kernel/nest';
import type { NotificationSent } from '../../contracts/events';

/** `notification.created` to the owner's sockets, with the text in both languages. */
@Injectable()
export class NotificationsRealtime implements OnModuleInit {
  constructor(private readonly registry: RealtimeRegistry) {}

  onModuleInit(): void {
    this.registry.register(['NotificationSent'], (recorded) => {
      const event = recorded as RecordedEvent<NotificationSent>;
      const { data } = event;
      // The message is the list's notification (`satisfies`: the socket's payload stays a plain record).
      const payload = {
        id: data.notificationId,
        type: data.type,
        kind: data.kind,
        title: data.title.fr,
        message: data.message.fr,
        i18n: {
          en: { title: data.title.en, message: data.message.en },
          fr: { title: data.title.fr, message: data.message.fr },
        },
        trackId: data.trackId,
        status: 'SENT',
        createdAt: event.metadata.occurredAt,
      } satisfies AppNotification;
      return { userId: event.metadata.userId, channel: 'notification.created', payload };
    });
  }
}
