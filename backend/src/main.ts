import './runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import { createApp } from './bootstrap';
import { ConfigError, loadConfig } from './config/config';
import { writeServerInfo } from './config/server-info';
import { logTools } from './health/health.service';
import { handleUncaughtErrors } from './observability/process-handlers';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { app, logger } = await createApp(config);
  await app.listen(config.PORT, config.HOST);
  try {
    // For the command lines (`npm run users -- token`): the issuer and audience this server's tokens carry.
    writeServerInfo(config);
  } catch (error) {
    logger.warn({ err: error }, 'could not write DATA_DIR/server.json: the users command needs PUBLIC_URL or PORT');
  }
  logger.info(
    { url: config.publicUrl, listen: `${config.HOST}:${config.PORT}`, dataDir: config.DATA_DIR },
    'Kora is listening',
  );
  void logTools(config, logger);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals | 'uncaughtException', exitCode = 0): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, draining requests');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => {
        logger.info('shutdown complete');
        process.exit(exitCode);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Node passes the signal's number as a second argument: not an exit code.
  process.once('SIGTERM', (signal) => shutdown(signal));
  process.once('SIGINT', (signal) => shutdown(signal));
  handleUncaughtErrors(logger, (code) => shutdown('uncaughtException', code));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
