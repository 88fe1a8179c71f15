import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { SessionRevocations } from '@kora/identity';
import type { EndedSessionsDocument, SessionsEnded } from '@kora/identity/contracts';
import { EventStore, ReadStore, type RecordedEvent, streamId, type Subscription } from '@kora/kernel';
import type { AuthenticatedUser } from '@kora/kernel/nest';
import { endedSessionsProjection } from '@kora/projections';
import type { Logger } from 'pino';
import { LOGGER } from '../observability/logger';
import { LONGEST_ACCESS_TOKEN_SECONDS } from './token-lifetimes';

const PAGE = 1_000;
/** Cutoffs are kept this long: the longest token lifetime, plus an hour for clocks and the verifier's tolerance. */
export const CUTOFF_KEPT_SECONDS = LONGEST_ACCESS_TOKEN_SECONDS + 60 * 60;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** A cutoff just recorded: the account's tokens issued until that second, or with `sessionId` that session's only. */
export interface EndedSessions {
  userId: string;
  tokensIssuedUntilSecond: number;
  sessionId: string | null;
}
export type SessionsEndedListener = (ended: EndedSessions) => void;

/**
 * Which access tokens no longer count although their signature and expiry are fine: those of an account whose
 * sessions ended (logout, password reset, deactivation, purge) issued at or before the recorded cutoff. The decision
 * comes from the log: at start this process loads the `ended-sessions` read model, then follows `SessionsEnded`
 * events from that read model's checkpoint, so every replica refuses a token within moments of its revocation, and
 * the check is one map lookup per request. The process that records a revocation applies it at once
 * (read-your-writes).
 *
 * `iat` counts whole seconds, so a cutoff covers its whole second: tokens issued in that second are refused too,
 * and the revoking request answers only once that second is over (`settled`), so a new sign-in works at once.
 *
 * A logout on one device ends one session (`sessionId`): every token carrying that session's id (`sid`) is refused,
 * whenever it was issued (the provider revoked the session's refresh tokens, so none is issued after), and the
 * account's other devices go on.
 *
 * Cutoffs older than `CUTOFF_KEPT_SECONDS` (a day and an hour) are forgotten every 10 minutes: every token they
 * refuse has expired by then, so memory stays bounded by the revocations of the last day. What is forgotten leaves
 * one number, the newest forgotten cutoff: a token issued at or before it is refused whoever it belongs to. Only a
 * token living longer than a day (an external issuer's) can be that old and unexpired; it is refused rather than
 * risk accepting a revoked one.
 */
@Injectable()
export class RevokedSessions extends SessionRevocations implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** userId → the last second (epoch seconds, like `iat`) whose tokens are refused. */
  private readonly cutoffs = new Map<string, number>();
  /** Session id (`sid`) → the second it ended (epoch seconds), for the logouts of one device. */
  private readonly endedSessions = new Map<string, number>();
  /** The newest cutoff forgotten by `prune` (epoch seconds), or null while none has been. */
  private forgottenUntil: number | null = null;
  private readonly listeners = new Set<SessionsEndedListener>();
  private subscription: Subscription | null = null;
  private pruning: NodeJS.Timeout | null = null;
  /** The wall clock that stamps tokens, in milliseconds (tests replace it). */
  now: () => number = Date.now;

  constructor(
    private readonly events: EventStore,
    private readonly reads: ReadStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  /**
   * True when the token was issued at or before its account's last cutoff (or says nothing of when it was), or at or
   * before the newest forgotten cutoff (see `prune`).
   */
  isRevoked(user: AuthenticatedUser): boolean {
    const cutoff = this.cutoffs.get(user.userId);
    const { iat, exp, sid } = user.claims;
    if (typeof sid === 'string' && this.endedSessions.has(sid)) return true;
    if (typeof iat !== 'number') {
      if (cutoff !== undefined) return true;
      // Undated: it may be as old as its expiry less the longest lifetime.
      if (this.forgottenUntil === null) return false;
      return typeof exp !== 'number' || exp - LONGEST_ACCESS_TOKEN_SECONDS <= this.forgottenUntil;
    }
    return (cutoff !== undefined && iat <= cutoff) || (this.forgottenUntil !== null && iat <= this.forgottenUntil);
  }

  /** Tracked cutoffs, of accounts and of single sessions (operators, tests). */
  get size(): number {
    return this.cutoffs.size + this.endedSessions.size;
  }

  /**
   * Forgets the cutoffs older than `CUTOFF_KEPT_SECONDS`, remembering only the newest of them: a token issued before
   * it has expired (the longest lifetime is a day), or is refused. Runs every 10 minutes and after the start's load.
   */
  prune(): number {
    const horizon = Math.floor(this.now() / 1000) - CUTOFF_KEPT_SECONDS;
    let forgotten = 0;
    for (const [userId, cutoff] of this.cutoffs) {
      if (cutoff >= horizon) continue;
      this.cutoffs.delete(userId);
      this.forgottenUntil = Math.max(this.forgottenUntil ?? cutoff, cutoff);
      forgotten += 1;
    }
    // A single session's tokens issued before its end have expired by now, and none was issued after it.
    for (const [sessionId, ended] of this.endedSessions) {
      if (ended >= horizon) continue;
      this.endedSessions.delete(sessionId);
      forgotten += 1;
    }
    return forgotten;
  }

  /** Called for every newly recorded cutoff (sockets end the connections it revokes). */
  onEnded(listener: SessionsEndedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  cutoff(): string {
    return new Date().toISOString();
  }

  ended(userId: string, tokensIssuedUntil: string, sessionId?: string): void {
    const second = Math.floor(Date.parse(tokensIssuedUntil) / 1000);
    if (!Number.isFinite(second)) return;
    if (sessionId) {
      if (this.endedSessions.has(sessionId)) return;
      this.endedSessions.set(sessionId, second);
    } else {
      if (second <= (this.cutoffs.get(userId) ?? -Infinity)) return;
      this.cutoffs.set(userId, second);
    }
    const ended: EndedSessions = { userId, tokensIssuedUntilSecond: second, sessionId: sessionId ?? null };
    for (const listener of this.listeners) {
      try {
        listener(ended);
      } catch (error) {
        this.logger.error({ err: error }, 'sessions-ended listener failed');
      }
    }
  }

  async settled(tokensIssuedUntil: string): Promise<void> {
    const wait = (Math.floor(Date.parse(tokensIssuedUntil) / 1000) + 1) * 1000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Loads the read model, then follows the log from its checkpoint; resolves once caught up with the head. */
  async onApplicationBootstrap(): Promise<void> {
    const checkpoint = await this.reads.getCheckpoint(endedSessionsProjection.name);
    // A read model of another version may be about to be rebuilt: then the log alone says it all.
    const from = checkpoint?.version === endedSessionsProjection.version ? checkpoint.position : 0;
    if (from > 0) await this.load();
    const head = await this.events.headPosition();
    let caughtUp!: () => void;
    const ready = new Promise<void>((resolve) => (caughtUp = resolve));
    if (from >= head) caughtUp();
    this.subscription = this.events.subscribe(
      {
        after: from,
        types: endedSessionsProjection.handles,
        onError: (error) => this.logger.error({ err: error }, 'ended-sessions subscription failed; retrying'),
      },
      async (events, scannedTo) => {
        for (const event of events as RecordedEvent<SessionsEnded>[]) {
          this.ended(streamId(event.streamName), event.data.tokensIssuedUntil, event.data.sessionId);
        }
        if (scannedTo >= head) caughtUp();
      },
    );
    await ready;
    this.prune();
    this.pruning = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruning.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.pruning) clearInterval(this.pruning);
    this.pruning = null;
    await this.subscription?.stop();
    this.subscription = null;
  }

  private async load(): Promise<void> {
    const collection = this.reads.collection<EndedSessionsDocument>(endedSessionsProjection.collection);
    let after = '';
    for (;;) {
      const page = await collection.find({ _id: { $gt: after } }, { sort: { _id: 1 }, limit: PAGE });
      for (const doc of page) {
        if (doc.tokensIssuedUntil) this.ended(doc._id, doc.tokensIssuedUntil);
        for (const [sessionId, ended] of Object.entries(doc.sessions ?? {})) this.ended(doc._id, ended, sessionId);
      }
      if (page.length < PAGE) return;
      after = page[page.length - 1]!._id;
    }
  }
}
