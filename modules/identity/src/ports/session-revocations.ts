/**
 * The API's refusal of access tokens whose session ended (`SessionsEnded`), as the accounts need it. Every replica
 * builds its list from the event log; the adapter lives with the token check (backend `auth/`).
 */
export abstract class SessionRevocations {
  /**
   * The instant to record as `tokensIssuedUntil`: now, on the wall clock that stamps access tokens (`iat`), which is
   * not the application clock a test may move.
   */
  abstract cutoff(): string;

  /**
   * Applies a `SessionsEnded` just appended by this process at once, so the next request here is refused even
   * before the log delivers it (read-your-writes). Other replicas learn it from the log. With `sessionId`, only the
   * tokens of that session.
   */
  abstract ended(userId: string, tokensIssuedUntil: string, sessionId?: string): void;

  /**
   * Resolves once a token issued from now on can no longer fall within the revoked second (`iat` counts whole
   * seconds): the caller answers after it, so signing in again right away works.
   */
  abstract settled(tokensIssuedUntil: string): Promise<void>;
}
