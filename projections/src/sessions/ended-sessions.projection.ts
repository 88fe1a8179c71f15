import type { EndedSessionsDocument, SessionsEnded } from '@kora/identity/contracts';
import { defineProjection, streamId } from '@kora/kernel';

/**
 * One document per account whose sessions ended (logout, password reset, deactivation, purge): the latest cutoff,
 * before which its access tokens are refused. The API's token check loads it at start, then follows the log from its
 * checkpoint.
 */
export const endedSessionsProjection = defineProjection<SessionsEnded, EndedSessionsDocument>({
  name: 'ended-sessions',
  version: 1,
  collection: 'ended_sessions',
  handles: ['SessionsEnded'],
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const until = event.data.tokensIssuedUntil;
    return {
      _id: streamId(event.streamName),
      tokensIssuedUntil: current && current.tokensIssuedUntil > until ? current.tokensIssuedUntil : until,
    };
  },
});
