import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { requestContext } from './request-context';

/**
 * Structured JSON logs: one object per line on stdout, with the request's correlation id mixed in. Secrets never
 * reach the log: authorization headers, cookies and password fields are redacted.
 */
export function createLogger(level: string): Logger {
  // Buffered, asynchronous writes: a log line costs the request almost nothing; flushed on exit.
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino(
    {
      level,
      base: { service: 'kora' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const context = requestContext.current();
        return context
          ? { correlationId: context.correlationId, ...(context.userId ? { userId: context.userId } : {}) }
          : {};
      },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.accessToken'],
        censor: '[redacted]',
      },
    },
    destination,
  );
  process.once('exit', () => destination.flushSync());
  return logger;
}

/** Routes Nest's own log calls into pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
