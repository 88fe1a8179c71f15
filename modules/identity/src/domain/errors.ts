import { CodedError } from '@kora/kernel';

export class AccountNotFoundError extends CodedError {
  readonly code = 'ACCOUNT.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('No account is registered for this sign-in yet. Complete sign-up first.');
  }
}

export class AccountDeactivatedError extends CodedError {
  readonly code = 'ACCOUNT.DEACTIVATED';
  readonly kind = 'forbidden';
  constructor() {
    super('This account is scheduled for deletion. Sign in again to restore it.');
  }
}

export class AccountDeletedError extends CodedError {
  readonly code = 'ACCOUNT.DELETED';
  readonly kind = 'gone';
  constructor() {
    super('This account was deleted.');
  }
}

export class PurgeNotDueError extends CodedError {
  readonly code = 'ACCOUNT.PURGE_NOT_DUE';
  readonly kind = 'conflict';
  constructor() {
    super('The account can still be restored: it is not due for deletion yet.');
  }
}
