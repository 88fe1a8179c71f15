import '../runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import {
  Anomalies,
  BillingError,
  CreditExpiry,
  OrangeMoneyGateway,
  OrangeMoneyRestGateway,
  ProviderRefusal,
  ProviderUnavailable,
  Refunds,
} from '@kora/billing';
import { ConfigError, loadConfig } from '../config/config';
import { CLI_ROLE, cliApplication } from './cli-logger';

const USAGE = `usage:
  npm run billing -- refund <paymentId> [--reason <text>] [--refund-id <provider's refund id>]
      records a refund made at the provider and takes back the credits it granted that were not spent
  npm run billing -- anomaly grant <paymentId> <captureId> [--note <text>]
      grants a payment whose money did not match its sale (npm run audit lists them), once checked at the provider
  npm run billing -- anomaly refund <paymentId> <captureId> --refund-id <provider's refund id> [--note <text>]
      records that such money was refunded at the provider (nothing is granted)
  npm run billing -- orange-money register-callback
      tells Sonatel where to send this merchant's payment callbacks (PUBLIC_URL/api/payments/orange-money/callback),
      with ORANGE_MONEY_CALLBACK_API_KEY; run it once per environment
  npm run billing -- expire
      expires the credits of packs past their end date now (the server does it every BILLING_EXPIRY_SECONDS)`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

const major = (amount: number, currency: string): string =>
  currency === 'XOF' ? `${amount} XOF` : `${(amount / 100).toFixed(2)} ${currency}`;

const positional = (value: string | undefined): value is string => !!value && !value.startsWith('--');

/**
 * `npm run billing -- refund <paymentId>`, `anomaly grant|refund` and `expire`: operators' commands on the ledger,
 * beside a running server.
 */
async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command !== 'refund' && command !== 'expire' && command !== 'anomaly' && command !== 'orange-money') {
    console.log(USAGE);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  const paymentId = command === 'refund' ? args[0] : command === 'anomaly' ? args[1] : undefined;
  const resolution = command === 'anomaly' ? args[0] : undefined;
  const malformed =
    (command === 'refund' && !positional(paymentId)) ||
    (command === 'anomaly' &&
      (!(resolution === 'grant' || resolution === 'refund') ||
        !positional(paymentId) ||
        !positional(args[2]) ||
        (resolution === 'refund' && !option(args, '--refund-id')))) ||
    (command === 'orange-money' && args[0] !== 'register-callback');
  if (malformed) {
    console.error(USAGE);
    return 2;
  }
  // Projections on (the commands wait for their read models), no processors or jobs: the server runs those.
  const config = loadConfig({
    ...process.env,
    PROJECTIONS: 'on',
    ...CLI_ROLE,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const app = await cliApplication(config);
  try {
    if (command === 'orange-money') {
      const gateway = app.get(OrangeMoneyGateway);
      if (!(gateway instanceof OrangeMoneyRestGateway)) {
        console.error('Orange Money is not live here: set ORANGE_MONEY_CLIENT_ID and the rest of ORANGE_MONEY_*.');
        return 3;
      }
      const callbackUrl = `${config.publicUrl}/api/payments/orange-money/callback`;
      try {
        const answer = await gateway.registerCallback(callbackUrl, 'Kora');
        console.log(
          `Registered ${callbackUrl} with Orange Money (HTTP ${answer.status}): ${JSON.stringify(answer.body)}`,
        );
        return 0;
      } catch (error) {
        if (error instanceof ProviderRefusal || error instanceof ProviderUnavailable) {
          console.error(`Orange Money refused the registration: ${error.message}`);
          return 3;
        }
        throw error;
      }
    }
    if (command === 'expire') {
      const expired = await app.get(CreditExpiry).runOnce();
      console.log(`${expired} pack(s) expired.`);
      return 0;
    }
    const refundId = option(args, '--refund-id');
    try {
      if (command === 'anomaly') {
        const outcome = await app
          .get(Anomalies)
          .resolve(
            paymentId!,
            args[2]!,
            resolution as 'grant' | 'refund',
            option(args, '--note') ?? `${resolution === 'grant' ? 'granted' : 'refunded'} by an operator`,
            refundId ?? null,
          );
        const done = outcome.resolution === 'grant' ? 'granted' : 'recorded as refunded';
        console.log(
          `${outcome.resolvedNow ? 'Resolved' : 'Already resolved'}: payment ${outcome.paymentId} of ${outcome.ownerId}, capture ${outcome.captureId} ${done}.`,
        );
        return 0;
      }
      const reason = option(args, '--reason') ?? 'refunded by an operator';
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
