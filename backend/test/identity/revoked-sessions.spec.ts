import type { EventStore, ReadStore } from '@kora/kernel';
import pino from 'pino';
import { describe, expect, it } from '@jest/globals';
import { CUTOFF_KEPT_SECONDS, RevokedSessions } from '../../src/auth/revoked-sessions';

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * The in-memory list of cutoffs forgets the ones older than the longest token lifetime (a day) plus an hour, without
 * ever accepting a token a forgotten cutoff refused. Stores are not needed for the decisions themselves.
 */
describe('revoked sessions, pruned', () => {
  const start = Date.parse('2026-06-01T12:00:00Z') / 1000;
  function list(): { revoked: RevokedSessions; clock: { seconds: number } } {
    const revoked = new RevokedSessions({} as EventStore, {} as ReadStore, pino({ level: 'silent' }));
    const clock = { seconds: start };
    revoked.now = () => clock.seconds * 1000;
    return { revoked, clock };
  }
  const at = (seconds: number): string => new Date(seconds * 1000).toISOString();
  const token = (userId: string, iat: number | null, exp = iat === null ? start + HOUR : iat + HOUR) => ({
    userId,
    claims: { sub: userId, exp, ...(iat === null ? {} : { iat }) },
  });

  it('keeps a cutoff for a day and an hour, then forgets it, still refusing every token it refused', () => {
    const { revoked, clock } = list();
    revoked.ended('awa', at(start - 2 * DAY)); // older than what is kept
    revoked.ended('moussa', at(start - HOUR));
    expect(revoked.size).toBe(2);
    expect(revoked.isRevoked(token('awa', start - 2 * DAY - 10))).toBe(true);

    expect(revoked.prune()).toBe(1);
    expect(revoked.size).toBe(1);
    // Awa's old tokens stay refused (a long-lived one included); her new ones, and anyone's, work.
    expect(revoked.isRevoked(token('awa', start - 2 * DAY - 10, start + DAY))).toBe(true);
    expect(revoked.isRevoked(token('awa', start - 2 * DAY + 1))).toBe(false);
    expect(revoked.isRevoked(token('awa', start - 60))).toBe(false);
    expect(revoked.isRevoked(token('fatou', start - 60))).toBe(false);
    // Another account's token older than the forgotten cutoff can only be unexpired if it lives over a day:
    // refused, since the list no longer knows whether its account was revoked then.
    expect(revoked.isRevoked(token('fatou', start - 2 * DAY - 10, start + DAY))).toBe(true);
    // An undated token is dated by its expiry less the longest lifetime.
    expect(revoked.isRevoked(token('fatou', null, start + HOUR))).toBe(false);
    expect(revoked.isRevoked(token('fatou', null, start - 2 * DAY - 10 + DAY))).toBe(true);
    // Moussa's cutoff is kept and applies as before.
    expect(revoked.isRevoked(token('moussa', start - HOUR))).toBe(true);
    expect(revoked.isRevoked(token('moussa', start - HOUR + 1))).toBe(false);
    expect(revoked.isRevoked(token('moussa', null))).toBe(true);

    // Until it too is older than what is kept.
    clock.seconds = start - HOUR + CUTOFF_KEPT_SECONDS;
    expect(revoked.prune()).toBe(0);
    clock.seconds += 1;
    expect(revoked.prune()).toBe(1);
    expect(revoked.size).toBe(0);
    expect(revoked.isRevoked(token('moussa', start - HOUR, clock.seconds + HOUR))).toBe(true);
    expect(revoked.isRevoked(token('moussa', start - HOUR + 1))).toBe(false);
  });

  it('records a newer cutoff after an older one was forgotten', () => {
    const { revoked } = list();
    revoked.ended('awa', at(start - 2 * DAY));
    revoked.prune();
    revoked.ended('awa', at(start - 10));
    expect(revoked.isRevoked(token('awa', start - 10))).toBe(true);
    expect(revoked.isRevoked(token('awa', start - 9))).toBe(false);
  });

  it("refuses every token of one ended session, whenever issued, and not the account's other sessions", () => {
    const { revoked, clock } = list();
    const ended: unknown[] = [];
    revoked.onEnded((event) => ended.push(event));
    const device = (sid: string, iat: number) => ({ userId: 'awa', claims: { sub: 'awa', iat, exp: iat + HOUR, sid } });
    revoked.ended('awa', at(start - 60), 'laptop');
    expect(ended).toEqual([{ userId: 'awa', tokensIssuedUntilSecond: start - 60, sessionId: 'laptop' }]);
    expect(revoked.isRevoked(device('laptop', start - 120))).toBe(true);
    expect(revoked.isRevoked(device('laptop', start + 5))).toBe(true); // a refresh racing the logout
    expect(revoked.isRevoked(device('phone', start - 120))).toBe(false);
    expect(revoked.isRevoked(token('awa', start - 120))).toBe(false);
    revoked.ended('awa', at(start - 30), 'laptop'); // the log delivering what this process applied already
    expect(ended).toHaveLength(1);
    // Forgotten a day and an hour later: every token of that session has expired by then.
    clock.seconds = start - 60 + CUTOFF_KEPT_SECONDS + 1;
    expect(revoked.prune()).toBe(1);
    expect(revoked.size).toBe(0);
  });
});
