import type { LocalisedText, NotificationKind } from './events';

/** Sends a push notification to a user (sagas of other modules, operators' announcements). */
export class SendNotification {
  constructor(
    readonly userId: string,
    readonly kind: NotificationKind,
    readonly title: LocalisedText,
    readonly message: LocalisedText,
    readonly trackId: string | null,
    /** Id of the event or request that caused it: the same cause never notifies twice. */
    readonly causationId: string,
  ) {}
}
