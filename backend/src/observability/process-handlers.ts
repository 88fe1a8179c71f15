import type { Logger } from 'pino';

/**
 * What the process does with errors nothing caught (decided in docs/operations.md, "Errors nothing caught"):
 *
 * - an unhandled promise rejection is a request-scoped bug (a promise some handler forgot to await): it is logged at
 *   `error` with its stack and counted, and the process keeps serving. Node's default would end the process and
 *   every other user's request with it;
 * - an uncaught exception may have left shared state half-changed: it is logged at `fatal`, then the process shuts
 *   down as on SIGTERM (draining what it can, `SHUTDOWN_TIMEOUT_MS` at most) and exits 1 for its supervisor (systemd,
 *   Docker's restart policy, the orchestrator) to start it again.
 *
 * Never silent: both carry `event: 'process.unhandled'` so alerting can match one key.
 */
export function handleUncaughtErrors(logger: Logger, shutdown: (code: number) => void): { rejections: () => number } {
  let rejections = 0;
  process.on('unhandledRejection', (reason) => {
    rejections += 1;
    logger.error(
      { err: reason, event: 'process.unhandled', kind: 'unhandledRejection', total: rejections },
      'unhandled promise rejection (a bug): logged, the server keeps serving',
    );
  });
  process.on('uncaughtException', (error, origin) => {
    logger.fatal(
      { err: error, event: 'process.unhandled', kind: 'uncaughtException', origin },
      'uncaught exception: shutting down, the supervisor restarts the process',
    );
    shutdown(1);
  });
  return { rejections: () => rejections };
}
