import './runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { availableParallelism } from 'node:os';
import { AppModule } from './app.module';
import { ConfigError, loadConfig } from './config/config';
import { logTools } from './health/health.service';
import { createLogger, PinoNestLogger } from './observability/logger';
import { handleUncaughtErrors } from './observability/process-handlers';

/**
 * `npm run worker`: the background process of a cluster, without HTTP. It runs the processing jobs (competing with
 * the other workers for the shared queue: WORKERS at once, by default one per core but one), the projections and the
 * processors (run the API replicas with PROJECTIONS=off and WORKERS=0). Stops cleanly on SIGTERM: running jobs are
 * handed back to the queue.
 */
async function main(): Promise<void> {
  const workers = process.env.WORKERS ?? String(Math.max(1, availableParallelism() - 1));
  const config = loadConfig({ ...process.env, WORKERS: workers });
  const logger = createLogger(config.LOG_LEVEL);
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, logger), {
    logger: new PinoNestLogger(logger),
  });
  await app.init();
  logger.info({ workers: config.WORKERS, projections: config.PROJECTIONS }, 'worker started');
  void logTools(config, logger);
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'uncaughtException', exitCode = 0): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    // After an uncaught exception the process may hang on a broken resource: bound the wait.
    if (exitCode !== 0) setTimeout(() => process.exit(exitCode), config.SHUTDOWN_TIMEOUT_MS).unref();
    app.close().then(
      () => {
        logger.info('worker stopped');
        process.exit(exitCode);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'worker stop failed');
        process.exit(1);
      },
    );
  };
  // Node passes the signal's number as a second argument: not an exit code.
  process.once('SIGTERM', (signal) => stop(signal));
  process.once('SIGINT', (signal) => stop(signal));
  handleUncaughtErrors(logger, (code) => stop('uncaughtException', code));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
