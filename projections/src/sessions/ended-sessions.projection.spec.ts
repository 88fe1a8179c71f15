import { describe, it } from '@jest/globals';
import type { EndedSessionsDocument, SessionsEnded } from '@kora/identity/contracts';
import { accountStream } from '@kora/identity/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { endedSessionsProjection } from './ended-sessions.projection';

const givenEvents = ProjectionSpecification.for(endedSessionsProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:30:00.250Z';
const T2 = '2026-03-02T08:00:00.000Z';

const ended = (tokensIssuedUntil: string, reason: SessionsEnded['data']['reason'] = 'logout'): SessionsEnded => ({
  type: 'SessionsEnded',
  data: { reason, tokensIssuedUntil },
});
/** A logout on one device: that session only. */
const oneEnded = (sessionId: string, tokensIssuedUntil: string): SessionsEnded => ({
  type: 'SessionsEnded',
  data: { reason: 'logout', tokensIssuedUntil, sessionId },
});
const cutoff = (userId: string, tokensIssuedUntil: string): EndedSessionsDocument => ({
  _id: userId,
  tokensIssuedUntil,
});

describe('the ended-sessions read model', () => {
  it('records the cutoff of an account whose sessions ended', () => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T1 });
    givenEvents(log.record(accountStream('u1'), ended(T1))).thenDocument('u1', cutoff('u1', T1));
  });

  it.each(['deactivation', 'purge'] as const)('records the cutoff of a %s as it does a logout', (reason) => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T1 });
    givenEvents(log.record(accountStream('u1'), ended(T1, reason))).thenDocument('u1', cutoff('u1', T1));
  });

  it('moves the cutoff forward when the sessions end again', () => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(accountStream('u1'), ended(T0)),
      log.record(accountStream('u1'), ended(T2, 'deactivation')),
    ).thenDocument('u1', cutoff('u1', T2));
  });

  it('keeps the later cutoff when an earlier one is recorded after it', () => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(accountStream('u1'), ended(T2)),
      log.record(accountStream('u1'), ended(T1, 'purge')),
    ).thenDocument('u1', cutoff('u1', T2));
  });

  it('keeps one document per account', () => {
    const log = eventLog<SessionsEnded>({ occurredAt: T0 });
    givenEvents(
      log.record(accountStream('u2'), ended(T2), { userId: 'u2' }),
      log.record(accountStream('u1'), ended(T1), { userId: 'u1' }),
    ).thenDocuments([cutoff('u1', T1), cutoff('u2', T2)]);
  });

  it('makes no document for an account whose sessions never ended', () => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(accountStream('u1'), ended(T1))).thenNoDocument('u2');
  });

  it('changes nothing when an event is applied twice, even after later ones', () => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T0 });
    const logout = log.record(accountStream('u1'), ended(T1));
    const deactivation = log.record(accountStream('u1'), ended(T2, 'deactivation'));
    givenEvents(logout, deactivation, logout, deactivation).thenDocument('u1', cutoff('u1', T2));
  });

  it('records a single session ended apart from the account-wide cutoff, which it leaves alone', () => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(accountStream('u1'), oneEnded('phone', T0))).thenDocument('u1', {
      _id: 'u1',
      tokensIssuedUntil: null,
      sessions: { phone: T0 },
    });
    givenEvents(
      log.record(accountStream('u1'), ended(T0)),
      log.record(accountStream('u1'), oneEnded('laptop', T1)),
    ).thenDocument('u1', { _id: 'u1', tokensIssuedUntil: T0, sessions: { laptop: T1 } });
  });

  it('forgets single sessions ended more than a day and an hour before the latest', () => {
    const log = eventLog<SessionsEnded>({ userId: 'u1', occurredAt: T0 });
    const later = '2026-03-02T11:00:01.000Z'; // 25 h and a second after T0
    givenEvents(
      log.record(accountStream('u1'), oneEnded('phone', T0)),
      log.record(accountStream('u1'), oneEnded('tablet', T1)),
      log.record(accountStream('u1'), oneEnded('laptop', later)),
    ).thenDocument('u1', { _id: 'u1', tokensIssuedUntil: null, sessions: { tablet: T1, laptop: later } });
  });
});
