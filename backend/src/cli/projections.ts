import '../runtime/refuse-unsupported-runtime';
import { ProjectionRunner } from '@kora/kernel';
import { allProjections } from '@kora/projections';
import { ConfigError, loadConfig } from '../config/config';
import { closeStores, openStores } from '../infra/infra.module';
import { runProjectionsCli } from './projections-cli';
import { CLI_ROLE } from './cli-logger';

/** `npm run projections -- status | rebuild <name> | rebuild --all`, on the stores the environment picks. */
async function main(): Promise<number> {
  const config = loadConfig({ ...process.env, ...CLI_ROLE });
  const stores = await openStores(config);
  try {
    const runner = new ProjectionRunner(stores.events, stores.reads, allProjections);
    return await runProjectionsCli(process.argv.slice(2), runner, {
      out: (line) => process.stdout.write(`${line}\n`),
      err: process.stderr,
    });
  } finally {
    await closeStores(stores);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
