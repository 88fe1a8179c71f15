/**
 * Stream names are `{family}-{id}`; each module names its own families in its contracts (`trackStream` in
 * `@kora/audio/contracts`...). The kernel only takes names apart.
 */

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
