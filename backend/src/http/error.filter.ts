import type { ErrorAnswer, ErrorCode } from '@kora/contracts';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { CodedError, type ErrorKind, isStorageFull, StorageFullError, ValidationFailedError } from '@kora/kernel';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '../observability/logger';

/**
 * An HTTP answer a route gives by itself (a status no domain kind names: 412, 415...), its code one of the contract's,
 * so the client has its translation: `throw new CodedHttpException(415, 'UPLOAD.CONTENT_TYPE', '...')`.
 */
export class CodedHttpException extends HttpException {
  constructor(status: number, code: ErrorCode, message: string) {
    super({ code, message }, status);
  }
}

/**
 * The one shape every error answer has, the contract's: the client maps `code` to a translation key and shows
 * `message` otherwise.
 */
export type ErrorBody = ErrorAnswer;

/** The one place a domain error's kind becomes an HTTP status. */
export const KIND_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  too_many_requests: 429,
  provider_failed: 502,
  storage_full: 507,
};

const HTTP_CODES: Record<number, ErrorCode> = {
  400: 'HTTP.BAD_REQUEST',
  401: 'AUTH.REQUIRED',
  403: 'HTTP.FORBIDDEN',
  404: 'HTTP.NOT_FOUND',
  405: 'HTTP.METHOD_NOT_ALLOWED',
  413: 'HTTP.PAYLOAD_TOO_LARGE',
  415: 'HTTP.UNSUPPORTED_MEDIA_TYPE',
  429: 'HTTP.TOO_MANY_REQUESTS',
};

/**
 * Maps coded domain errors (by their kind, `KIND_STATUS`) and Nest's HTTP exceptions to HTTP in one place; anything
 * else is a logged 500.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const body = this.toBody(exception);
    if (body.statusCode >= 500) this.logger.error({ err: exception }, 'request failed');
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    void reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
  }

  private toBody(exception: unknown): ErrorBody {
    if (exception instanceof ValidationFailedError) {
      return {
        statusCode: KIND_STATUS[exception.kind],
        code: exception.code,
        message: exception.message,
        fields: exception.fields,
      };
    }
    if (exception instanceof CodedError) {
      return {
        statusCode: KIND_STATUS[exception.kind],
        code: exception.code,
        message: exception.message,
        ...(exception.details ? { details: exception.details } : {}),
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const fromObject = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
      const message =
        typeof fromObject.message === 'string'
          ? fromObject.message
          : Array.isArray(fromObject.message)
            ? fromObject.message.join('; ')
            : exception.message;
      return {
        statusCode: status,
        code: typeof fromObject.code === 'string' ? fromObject.code : (HTTP_CODES[status] ?? `HTTP.${status}`),
        message,
      };
    }
    if (isClientError(exception)) {
      // Refused by the HTTP layer before any handler ran: an unreadable, oversized or unsupported body.
      const status = exception.statusCode;
      return {
        statusCode: status,
        code: HTTP_CODES[status] ?? `HTTP.${status}`,
        message: CLIENT_MESSAGES[status] ?? exception.message,
      };
    }
    if (isStorageFull(exception)) {
      // A write that found the disk full (an event append, a file outside the blob store): no bare 500.
      const full = new StorageFullError();
      return { statusCode: KIND_STATUS[full.kind], code: full.code, message: full.message };
    }
    return {
      statusCode: 500,
      code: 'HTTP.INTERNAL_SERVER_ERROR',
      message: 'Something went wrong on our side. Please try again.',
    };
  }
}

const CLIENT_MESSAGES: Record<number, string> = {
  413: 'The request body is too large',
  415: 'This type of request body is not accepted',
};

function isClientError(exception: unknown): exception is Error & { statusCode: number } {
  const status = (exception as { statusCode?: unknown } | null)?.statusCode;
  return exception instanceof Error && typeof status === 'number' && status >= 400 && status < 500;
}
