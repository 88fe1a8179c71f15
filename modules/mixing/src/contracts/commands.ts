/**
 * Unlocks a user's mix session once it is paid for (a captured payment or a spent credit). Another user's session is
 * as absent as a missing one (404); unlocking twice changes nothing. Answers true when it was unlocked now.
 */
export class UnlockMix {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly via: 'payment' | 'credit',
    /** What paid for it (the payment id or the spend id), recorded as the unlock's cause. */
    readonly causationId: string,
  ) {}
}
