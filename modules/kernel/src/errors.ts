import type { ErrorCode, FieldCode, KernelErrorCode } from '@kora/contracts';

/**
 * What kind of refusal an error is, in the domain's words. The HTTP edge (`backend/src/http/error.filter.ts`) turns
 * a kind into a status in one table; nothing below it knows about HTTP.
 */
export type ErrorKind =
  /** The request is not valid as sent. */
  | 'invalid'
  /** Who is asking is not known, or could not be verified. */
  | 'unauthenticated'
  /** It needs a payment (or credits) first. */
  | 'payment_required'
  /** Known, but not allowed (a locked result, a deactivated account). */
  | 'forbidden'
  | 'not_found'
  /** The state does not allow it now (busy, already done, changed meanwhile). */
  | 'conflict'
  /** It existed and is gone for good. */
  | 'gone'
  | 'too_large'
  | 'too_many_requests'
  /** A provider we depend on did not answer. */
  | 'provider_failed'
  /** No room left to store it. */
  | 'storage_full';

/**
 * Errors with a stable code (`MODULE.PROBLEM`) and a kind: the HTTP layer maps the kind to a status in one place,
 * and the web client maps the code to a translation key in one table (`web/src/lib/error-codes.ts`). One class per
 * code, in its module's `domain/errors.ts`, on the module's base (`BillingError`...) whose `Code` is the module's
 * codes as `@kora/contracts` lists them, so a code the server sends is a code the client's table is typed against.
 */
export abstract class CodedError<Code extends string = string> extends Error {
  abstract readonly code: Code;
  abstract readonly kind: ErrorKind;
  /** Extra, client-safe facts (field names, limits). Never personal data. */
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Validation failure at the edge; `fields` maps a field name to its error code. */
export class ValidationFailedError extends CodedError<KernelErrorCode> {
  readonly code = 'VALIDATION.FAILED';
  readonly kind = 'invalid';
  constructor(
    /** Field by field, why: a code of `@kora/contracts`' FIELD_CODES, so the client has its translation. */
    readonly fields: Readonly<Record<string, FieldCode>>,
    message = 'The request is not valid',
  ) {
    super(message, { fields });
  }
}

export class NotFoundError extends CodedError<ErrorCode> {
  readonly code: ErrorCode;
  readonly kind = 'not_found';
  constructor(what: string, code: ErrorCode = 'RESOURCE.NOT_FOUND') {
    super(`${what} not found`);
    this.code = code;
  }
}

/** The state changed since it was read and the command cannot be retried safely. */
export class ConcurrencyConflictError extends CodedError<KernelErrorCode> {
  readonly code = 'CONCURRENCY.CONFLICT';
  readonly kind = 'conflict';
}

/**
 * The disk (or the blob store) has no room left: the write was refused and whatever it had written was removed.
 * Its own kind (507 on HTTP) so clients and operators tell it from a bug.
 */
export class StorageFullError extends CodedError<KernelErrorCode> {
  readonly code = 'STORAGE.FULL';
  readonly kind = 'storage_full';
  constructor(message = 'The server is out of storage space. Please try again later.') {
    super(message);
  }
}

/** Whether an error says the disk is full (a file system's `ENOSPC`/`EDQUOT`, SQLite's `SQLITE_FULL`). */
export function isStorageFull(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}
