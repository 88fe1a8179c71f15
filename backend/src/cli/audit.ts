import '../runtime/refuse-unsupported-runtime';
import type { AuditOptions } from '@kora/billing';
import { ConfigError, loadConfig } from '../config/config';
import { closeStores, openStores } from '../infra/infra.module';
import { type AuditResult, runAudit } from './audit-run';
import { CLI_ROLE } from './cli-logger';

const USAGE =
  'usage: npm run audit -- [--account <userId>] [--from <date>] [--to <date>] [--csv]\n' +
  '  replays every payment and credit event from the log and checks the ledger; exit 1 names the violating events';

class UsageError extends Error {}

function parseArgs(argv: string[]): { options: AuditOptions; csv: boolean } {
  const options: AuditOptions = {};
  let csv = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      i += 1;
      return next;
    };
    const date = (text: string): string => {
      const parsed = new Date(text);
      if (Number.isNaN(parsed.getTime())) throw new UsageError(`${arg}: not a date: ${text}`);
      return parsed.toISOString();
    };
    if (arg === '--csv') csv = true;
    else if (arg === '--account') options.account = value();
    else if (arg === '--from') options.from = date(value());
    else if (arg === '--to') options.to = date(value());
    else if (arg === '--help' || arg === '-h') throw new UsageError('');
    else throw new UsageError(`unknown argument ${arg}`);
  }
  return { options, csv };
}

const major = (amount: number, currency: string): string =>
  currency === 'XOF' ? String(amount) : (amount / 100).toFixed(2);

const csvCell = (value: string | number): string => {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The report as text tables (default) or CSV sections (`--csv`). */
export function printAudit(result: AuditResult, csv: boolean, out: (line: string) => void): void {
  const { report, differences } = result;
  const revenue = report.revenue.map((r) => [
    r.currency,
    r.provider,
    r.captures,
    major(r.captured, r.currency),
    r.refunds,
    major(r.refunded, r.currency),
    major(r.net, r.currency),
  ]);
  const balances = report.balances.map((b) => [
    b.userId,
    b.service,
    b.granted,
    b.spent,
    b.expired,
    b.revoked,
    b.held,
    b.usable,
  ]);
  const violations = [
    ...report.violations.flatMap((v) =>
      v.events.map((e) => [v.rule, v.message, e.type, e.id, e.streamName, e.revision, e.position]),
    ),
    ...differences.map((d) => [
      'readmodel.differs',
      `${d.readModel} document ${d.id} is ${d.problem} (the replay of the log disagrees)`,
      d.lastEvent?.type ?? '',
      d.lastEvent?.id ?? '',
      d.lastEvent?.streamName ?? '',
      '',
      d.lastEvent?.position ?? '',
    ]),
  ];
  const revenueHead = ['currency', 'provider', 'captures', 'captured', 'refunds', 'refunded', 'net'];
  const balanceHead = ['account', 'service', 'granted', 'spent', 'expired', 'revoked', 'held', 'usable'];
  const violationHead = ['rule', 'message', 'event_type', 'event_id', 'stream', 'revision', 'position'];
  if (csv) {
    const section = (name: string, head: string[], rows: Array<Array<string | number>>) => {
      out([`section`, ...head].join(','));
      for (const row of rows) out([name, ...row].map(csvCell).join(','));
      out('');
    };
    section('revenue', revenueHead, revenue);
    section('balance', balanceHead, balances);
    section('violation', violationHead, violations);
    return;
  }
  const table = (head: string[], rows: Array<Array<string | number>>) => {
    out(`| ${head.join(' | ')} |`);
    out(`|${head.map(() => '---').join('|')}|`);
    for (const row of rows) out(`| ${row.join(' | ')} |`);
  };
  const rate = result.replayMs > 0 ? Math.round((result.eventsRead / result.replayMs) * 1000) : 0;
  out(
    `Replayed ${result.eventsRead} events from the log (up to position ${result.head}) in ${result.replayMs.toFixed(0)} ms (${rate.toLocaleString('en-US')} events/s): ${report.payments} payments, ${report.accounts} accounts with packs.`,
  );
  out('');
  out('Revenue (captured minus refunded, in the currency; by when each was recorded)');
  table(revenueHead, revenue);
  out('');
  out(`Credit balances by account and service (held: not spent, expired or revoked; usable at ${report.balancesAt})`);
  table(balanceHead, balances);
  out('');
  if (violations.length === 0) {
    out('No violation: every invariant holds and the billing read models equal the replay.');
    return;
  }
  out(`${report.violations.length + differences.length} violation(s):`);
  for (const v of report.violations) {
    out(`  [${v.rule}] ${v.message}`);
    for (const e of v.events) {
      out(`      ${e.type} ${e.id} (${e.streamName} revision ${e.revision}, position ${e.position})`);
    }
  }
  for (const d of differences) {
    out(`  [readmodel.differs] ${d.readModel} document ${d.id} is ${d.problem}`);
    if (d.lastEvent) {
      out(
        `      last event: ${d.lastEvent.type} ${d.lastEvent.id} (${d.lastEvent.streamName}, position ${d.lastEvent.position})`,
      );
    }
  }
}

/** `npm run audit`: exit 0 when the ledger is clean, 1 naming the violating events, 2 on a usage error. */
async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) process.stderr.write(`${error.message}\n`);
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  const config = loadConfig({ ...process.env, ...CLI_ROLE });
  const stores = await openStores(config);
  try {
    const result = await runAudit(stores.events, stores.reads, parsed.options);
    printAudit(result, parsed.csv, (line) => process.stdout.write(`${line}\n`));
    return result.report.violations.length + result.differences.length > 0 ? 1 : 0;
  } finally {
    await closeStores(stores);
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
