import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { availableParallelism } from 'node:os';
import { AppModule } from './app.module';
import { ConfigError, loadConfig } from './config/config';
import { createLogger, PinoNestLogger } from './observability/logger';

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
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    app.close().then(
      () => {
        logger.info('worker stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'worker stop failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
