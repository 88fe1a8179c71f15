import type { EndedSessionsDocument, SessionsEnded } from '@kora/identity/contracts';
import { defineProjection, streamId } from '@kora/kernel';

/**
 * How long an ended single session is kept: access tokens live a day at most, plus an hour for clocks (the token
 * check's own `CUTOFF_KEPT_SECONDS`). Older ones can have no token left to refuse.
 */
export const ENDED_SESSION_KEPT_MS = 25 * 60 * 60 * 1000;

/**
 * One document per account whose sessions ended: the latest cutoff of all its sessions (signing out everywhere,
 * password reset, deactivation, purge), before which its access tokens are refused, and the single sessions ended
 * (a logout on one device) within `ENDED_SESSION_KEPT_MS` of the latest. The API's token check loads it at start,
 * then follows the log from its checkpoint.
 */
export const endedSessionsProjection = defineProjection<SessionsEnded, EndedSessionsDocument>({
  name: 'ended-sessions',
  version: 2,
  collection: 'ended_sessions',
  handles: ['SessionsEnded'],
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const { tokensIssuedUntil: until, sessionId } = event.data;
    const previous = current?.tokensIssuedUntil ?? null;
    const tokensIssuedUntil = sessionId ? previous : previous !== null && previous > until ? previous : until;
    const horizon = Date.parse(until) - ENDED_SESSION_KEPT_MS;
    const sessions = Object.fromEntries(
      Object.entries({ ...current?.sessions, ...(sessionId ? { [sessionId]: until } : {}) }).filter(
        ([, ended]) => Date.parse(ended) >= horizon,
      ),
    );
    return {
      _id: streamId(event.streamName),
      tokensIssuedUntil,
      ...(Object.keys(sessions).length > 0 ? { sessions } : {}),
    };
  },
});
