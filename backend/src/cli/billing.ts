import '../runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { BillingError, CreditExpiry, Refunds } from '@kora/billing';
import pino from 'pino';
import { AppModule } from '../app.module';
import { ConfigError, loadConfig } from '../config/config';

const USAGE = `usage:
  npm run billing -- refund <paymentId> [--reason <text>] [--refund-id <provider's refund id>]
      records a refund made at the provider and takes back the credits it granted that were not spent
  npm run billing -- expire
      expires the credits of packs past their end date now (the server does it every BILLING_EXPIRY_SECONDS)`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

const major = (amount: number, currency: string): string =>
  currency === 'XOF' ? `${amount} XOF` : `${(amount / 100).toFixed(2)} ${currency}`;

/** `npm run billing -- refund <paymentId>` and `expire`: operators' commands on the ledger, beside a running server. */
async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command !== 'refund' && command !== 'expire') {
    console.log(USAGE);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  const paymentId = command === 'refund' ? args[0] : undefined;
  if (command === 'refund' && (!paymentId || paymentId.startsWith('--'))) {
    console.error(USAGE);
    return 2;
  }
  // Projections on (the commands wait for their read models), no processors or jobs: the server runs those.
  const config = loadConfig({
    ...process.env,
    PROJECTIONS: 'on',
    PROCESSORS: 'off',
    WORKERS: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, pino({ level: config.LOG_LEVEL })), {
    logger: ['error', 'warn'],
  });
  try {
    if (command === 'expire') {
      const expired = await app.get(CreditExpiry).runOnce();
      console.log(`${expired} pack(s) expired.`);
      return 0;
    }
    const reason = option(args, '--reason') ?? 'refunded by an operator';
    const refundId = option(args, '--refund-id');
    try {
      const outcome = await app.get(Refunds).refund(paymentId!, reason, refundId);
      const what =
        outcome.kind === 'PACK'
          ? `${outcome.creditsRevoked} unspent credit(s) taken back`
          : `the result ${outcome.trackId} stays unlocked`;
      console.log(
        `${outcome.refundedNow ? 'Refunded' : 'Already refunded'}: payment ${outcome.paymentId} of ${outcome.ownerId}, ${major(outcome.amount.amount, outcome.amount.currency)}; ${what}.`,
      );
      return 0;
    } catch (error) {
      if (error instanceof BillingError) {
        console.error(`Refused (${error.code}): ${error.message}`);
        return error.kind === 'not_found' ? 4 : 3;
      }
      throw error;
    }
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
