import { CodedError } from '@kora/kernel';

export class AccountNotFoundError extends CodedError {
  readonly code = 'ACCOUNT.NOT_FOUND';
  readonly status = 404;
  constructor() {
    super('No account is registered for this sign-in yet. Complete sign-up first.');
  }
}

export class AccountDeactivatedError extends CodedError {
  readonly code = 'ACCOUNT.DEACTIVATED';
  readonly status = 403;
  constructor() {
    super('This account is scheduled for deletion. Sign in again to restore it.');
  }
}

export class AccountDeletedError extends CodedError {
  readonly code = 'ACCOUNT.DELETED';
  readonly status = 410;
  constructor() {
    super('This account was deleted.');
  }
}

export class PurgeNotDueError extends CodedError {
  readonly code = 'ACCOUNT.PURGE_NOT_DUE';
  readonly status = 409;
  constructor() {
    super('The account can still be restored: it is not due for deletion yet.');
  }
}
