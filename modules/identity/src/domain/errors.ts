import type { IdentityErrorCode } from '@kora/contracts';
import { CodedError } from '@kora/kernel';

/** A refusal of the identity module: one class per code below. */
export abstract class IdentityError extends CodedError<IdentityErrorCode> {}

export class AccountNotFoundError extends IdentityError {
  readonly code = 'ACCOUNT.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('No account is registered for this sign-in yet. Complete sign-up first.');
  }
}

export class AccountDeactivatedError extends IdentityError {
  readonly code = 'ACCOUNT.DEACTIVATED';
  readonly kind = 'forbidden';
  constructor() {
    super('This account is scheduled for deletion. Sign in again to restore it.');
  }
}

export class AccountDeletedError extends IdentityError {
  readonly code = 'ACCOUNT.DELETED';
  readonly kind = 'gone';
  constructor() {
    super('This account was deleted.');
  }
}

export class PurgeNotDueError extends IdentityError {
  readonly code = 'ACCOUNT.PURGE_NOT_DUE';
  readonly kind = 'conflict';
  constructor() {
    super('The account can still be restored: it is not due for deletion yet.');
  }
}

/** Password resets asked for one address too often (`RESET_PER_ADDRESS`). */
export class TooManyResetsError extends IdentityError {
  readonly code = 'AUTH.TOO_MANY_REQUESTS';
  readonly kind = 'too_many_requests';
  constructor(minutes: number) {
    super(`Too many requests. Try again in ${minutes} minutes.`);
  }
}
