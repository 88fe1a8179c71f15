import { Injectable } from '@nestjs/common';
import { CommandRunner, EventStore, ProjectionRunner } from '@kora/kernel';
import { notificationsStream } from '../contracts/streams';
import type { NotificationEvent } from '../contracts/events';
import { type InboxCommand, inboxDecider, type InboxState } from '../domain/notifications';

/** Runs an inbox command on the user's notifications stream; by default returns once the bell list shows it. */
@Injectable()
export class NotificationCommands extends CommandRunner<InboxCommand, NotificationEvent, InboxState> {
  constructor(store: EventStore, projections: ProjectionRunner) {
    super(store, projections, {
      stream: notificationsStream,
      decider: inboxDecider,
      retries: 3,
      readModels: ['notifications'],
    });
  }
}
