import 'reflect-metadata';
import { ProjectionRunner } from '@kora/kernel';
import { allProjections } from '@kora/projections';
import { ConfigError, loadConfig } from './config/config';
import { closeStores, openStores } from './infra/infra.module';
import { createLogger } from './observability/logger';

/**
 * `npm run worker`: the background process of a cluster. Today it maintains the read models (run the API replicas
 * with PROJECTIONS=off and one worker, so each projection has one runner); processing jobs join it as competing
 * consumers when the audio module lands. Stops cleanly on SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const stores = await openStores(config);
  const runner = new ProjectionRunner(stores.events, stores.reads, allProjections, {
    logger: { info: (o, m) => logger.info(o, m), error: (o, m) => logger.error(o, m) },
  });
  await runner.start();
  logger.info(
    { projections: runner.names, eventStore: stores.events.kind, readStore: stores.reads.kind },
    'worker started',
  );

  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    await runner.stop();
    await closeStores(stores);
    logger.info('worker stopped');
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
