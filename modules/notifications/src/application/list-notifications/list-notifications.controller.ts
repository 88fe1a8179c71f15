import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AppNotification, NotificationList } from '@kora/contracts';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { GetNotifications, type NotificationDocument } from '../../contracts/queries';

export function notificationView(doc: NotificationDocument, language: 'en' | 'fr' = 'fr'): AppNotification {
  return {
    id: doc._id,
    type: doc.type,
    kind: doc.kind,
    title: doc.title[language],
    message: doc.message[language],
    i18n: {
      en: { title: doc.title.en, message: doc.message.en },
      fr: { title: doc.title.fr, message: doc.message.fr },
    },
    trackId: doc.trackId,
    status: doc.status,
    createdAt: doc.createdAt,
  };
}

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/notifications')
export class ListNotificationsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'NotificationsController_list',
    summary: 'The newest 50 notifications; `type=PUSH` filters the channel; SENT means unread',
  })
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Query('type') type?: string,
    @Query('lang') lang?: string,
  ): Promise<NotificationList> {
    const docs = await this.queries.execute<GetNotifications, NotificationDocument[]>(
      new GetNotifications(user.userId, type === 'PUSH' ? 'PUSH' : null, 50),
    );
    const language = lang === 'en' ? 'en' : 'fr';
    return {
      notifications: docs.map((doc) => notificationView(doc, language)),
      unreadCount: docs.filter((doc) => doc.status === 'SENT').length,
    };
  }
}
