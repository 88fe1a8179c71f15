import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EventStore, handleCommand, ProjectionRunner, ValidationFailedError } from '@kora/kernel';
import { notificationsStream } from '../contracts/streams';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import type { NotificationKind } from '../contracts/events';
import { GetNotification, GetNotifications, type NotificationDocument } from '../contracts/queries';
import { inboxDecider, NotificationNotFoundError } from '../domain/notifications';

export interface NotificationView {
  id: string;
  type: 'PUSH';
  kind: NotificationKind;
  title: string;
  message: string;
  /** Both languages, so the client shows the one its interface uses. */
  i18n: { en: { title: string; message: string }; fr: { title: string; message: string } };
  trackId: string | null;
  status: 'SENT' | 'READ';
  createdAt: string;
}

export function notificationView(doc: NotificationDocument, language: 'en' | 'fr' = 'fr'): NotificationView {
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

const ACKNOWLEDGEABLE: readonly NotificationKind[] = ['PREVIEW_READY', 'MASTER_READY', 'STEMS_READY'];
const READ_MODELS = ['notifications'];

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/notifications')
export class NotificationsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly store: EventStore,
    private readonly contexts: CommandContexts,
    private readonly projections: ProjectionRunner,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The newest 50 notifications; `type=PUSH` filters the channel; SENT means unread' })
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Query('type') type?: string,
    @Query('lang') lang?: string,
  ): Promise<{ notifications: NotificationView[]; unreadCount: number }> {
    const docs = await this.queries.execute<GetNotifications, NotificationDocument[]>(
      new GetNotifications(user.userId, type === 'PUSH' ? 'PUSH' : null, 50),
    );
    const language = lang === 'en' ? 'en' : 'fr';
    return {
      notifications: docs.map((doc) => notificationView(doc, language)),
      unreadCount: docs.filter((doc) => doc.status === 'SENT').length,
    };
  }

  @Patch(':id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a notification read (idempotent)' })
  async markRead(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ success: true }> {
    const doc = await this.queries.execute<GetNotification, NotificationDocument | null>(
      new GetNotification(user.userId, id),
    );
    if (!doc) throw new NotificationNotFoundError();
    const result = await handleCommand(
      this.store,
      notificationsStream(user.userId),
      inboxDecider,
      { type: 'MarkRead', notificationId: id },
      this.contexts.forUser(user.userId),
      { retries: 3 },
    );
    if (result.append) await this.projections.waitFor(result.append.position, 5_000, READ_MODELS);
    return { success: true };
  }

  @Post('acknowledge')
  @HttpCode(200)
  @ApiOperation({ summary: 'Record that the client showed a result (once per track and type)' })
  async acknowledge(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { trackId?: unknown; notificationType?: unknown },
  ): Promise<{ success: true; acknowledged: boolean }> {
    const fields: Record<string, string> = {};
    if (typeof body?.trackId !== 'string' || body.trackId.length === 0 || body.trackId.length > 100) {
      fields.trackId = 'notifications.errors.trackIdRequired';
    }
    if (!ACKNOWLEDGEABLE.includes(body?.notificationType as NotificationKind)) {
      fields.notificationType = 'notifications.errors.invalidType';
    }
    if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
    const result = await handleCommand(
      this.store,
      notificationsStream(user.userId),
      inboxDecider,
      {
        type: 'Acknowledge',
        trackId: body.trackId as string,
        notificationType: body.notificationType as NotificationKind,
      },
      this.contexts.forUser(user.userId),
      { retries: 3 },
    );
    return { success: true, acknowledged: result.events.length > 0 };
  }
}
