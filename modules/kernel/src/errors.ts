/**
 * Errors with a stable code (`MODULE.PROBLEM`) that the HTTP layer maps to a status in one place and that the web
 * client maps to a translation key. `status` is the HTTP status the error deserves when it reaches a client.
 */
export abstract class CodedError extends Error {
  abstract readonly code: string;
  abstract readonly status: number;
  /** Extra, client-safe facts (field names, limits). Never personal data. */
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Validation failure at the edge; `fields` maps a field name to its error code. */
export class ValidationFailedError extends CodedError {
  readonly code = 'VALIDATION.FAILED';
  readonly status = 400;
  constructor(
    readonly fields: Record<string, string>,
    message = 'The request is not valid',
  ) {
    super(message, { fields });
  }
}

export class NotFoundError extends CodedError {
  readonly code: string;
  readonly status = 404;
  constructor(what: string, code = 'RESOURCE.NOT_FOUND') {
    super(`${what} not found`);
    this.code = code;
  }
}

/** The state changed since it was read and the command cannot be retried safely. */
export class ConcurrencyConflictError extends CodedError {
  readonly code = 'CONCURRENCY.CONFLICT';
  readonly status = 409;
}

/**
 * The disk (or the blob store) has no room left: the write was refused and whatever it had written was removed.
 * Answered 507 so clients and operators tell it from a bug.
 */
export class StorageFullError extends CodedError {
  readonly code = 'STORAGE.FULL';
  readonly status = 507;
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
