/**
 * One helper per stream family. Stream names are persisted: never change a prefix.
 */
export const accountStream = (userId: string): string => `account-${userId}`;
export const trackStream = (trackId: string): string => `track-${trackId}`;
export const mixStream = (sessionId: string): string => `mix-${sessionId}`;
export const creditsStream = (userId: string): string => `credits-${userId}`;
export const paymentStream = (paymentId: string): string => `payment-${paymentId}`;
export const notificationsStream = (userId: string): string => `notifications-${userId}`;

/** The id part of a stream name (`track-42` gives `42`). */
export function streamId(streamName: string): string {
  const dash = streamName.indexOf('-');
  return dash < 0 ? streamName : streamName.slice(dash + 1);
}

/** The family part of a stream name (`track-42` gives `track`). */
export function streamCategory(streamName: string): string {
  const dash = streamName.indexOf('-');
  return dash < 0 ? streamName : streamName.slice(0, dash);
}
