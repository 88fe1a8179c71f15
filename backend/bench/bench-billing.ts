import '../src/runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import { IdentityProvider, SignUpService } from '@kora/identity';
import { cpuSeconds } from './process-cpu';
import { seedMasteredTrack } from './seed-track';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { type Dispatcher, Pool } from 'undici';
import { loadConfig } from '../src/config/config';
import { BuiltInIdentityProvider } from '../src/identity-provider/built-in-provider';
import { closeStores, openStores } from '../src/infra/infra.module';
import { CLI_ROLE, cliApplication } from '../src/cli/cli-logger';

/**
 * `npm run bench:billing`: billing on the embedded defaults, the server in its own process on loopback, the load from
 * this one.
 * 1. Seeds ACCOUNTS accounts (built-in sign-in, registered) with an API token each, and CREDITS processed mastering
 *    tracks per account (PREVIEW_READY, written to the log as the worker would: billing is measured, not the DSP).
 * 2. Purchases: every account buys a 5-credit mastering pack through the PayPal sandbox over HTTP (createIntent, the
 *    payer's approval, capture), PURCHASE_CONCURRENCY accounts at a time.
 * 3. Unlocks: every account spends its 5 credits on its 5 tracks (`POST /api/audio/track/{id}/master`
 *    `{ credit: true }`), in two phases of half the accounts each:
 *    - capacity (closed loop): UNLOCK_CONCURRENCY requests in flight, each sent as soon as one is answered, so the
 *      rate is the most the server gives and the latency is the queue's (in-flight count over the rate, Little's law);
 *    - the target load (open loop): requests sent on a fixed schedule of `--rate` unlocks per second whatever the
 *      answers, each latency counted from the moment its request was due (not when it left, which would hide the
 *      time a request waited behind a slow one: "coordinated omission", as wrk2 counts): the latency users see at
 *      that load, and whether the server keeps up with it (the rate achieved).
 * 4. Stops the server and runs `npm run audit` over the result: clean or not, and its replay rate.
 * `--accounts N` changes the number of accounts; `--rate R` the open loop's rate; `BENCH_KEEP_DATA=1` keeps the data
 * directory (to profile the audit).
 */
const ROOT = join(__dirname, '..', '..', '..');
const CREDITS = 5;
const PURCHASE_CONCURRENCY = 50;
const UNLOCK_CONCURRENCY = 64;
/** As `npm run audit` starts it (package.json): a larger young generation for the replay's short-lived events. */
const AUDIT_NODE_ARGS = ['--max-semi-space-size=32'];

/** The integer after `flag` on the command line, or `fallback`. */
function positiveIntegerArgument(flag: string, fallback: number): number {
  const index = process.argv.indexOf(flag);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} takes a positive integer`);
  return value;
}

interface Account {
  userId: string;
  token: string;
  tracks: string[];
}

/**
 * The load's HTTP client: undici's pool (keep-alive, up to 256 connections). node:http's client cost the load
 * 160-200 us of CPU an unlock on the same two cores as the server, measured; the target is the server's.
 */
let pool256: Pool | null = null;

/** One JSON request: status, parsed body and milliseconds. */
async function call(
  port: number,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  pool256 ??= new Pool(`http://127.0.0.1:${port}`, { connections: 256 });
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = process.hrtime.bigint();
  const answer = await pool256.request({
    path,
    method: method as Dispatcher.HttpMethod,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { body: payload } : {}),
  });
  const text = await answer.body.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  let parsed: Record<string, unknown>;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { text };
  }
  return { status: answer.statusCode, body: parsed, ms };
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * Starts `work` for item i at `i / perSecond` seconds from now, whether or not earlier items are done, and resolves
 * with each item's milliseconds from its due time to the end of its work, and the rate at which the work ended (ends
 * per second between the first and the last end: the offered rate when the server keeps up, less when it falls
 * behind).
 */
async function openLoop<T>(
  items: T[],
  perSecond: number,
  work: (item: T) => Promise<void>,
): Promise<{ ms: number[]; endsPerSecond: number }> {
  const ms: number[] = [];
  let firstEnd = Number.POSITIVE_INFINITY;
  let lastEnd = 0;
  const running: Promise<void>[] = [];
  const start = process.hrtime.bigint();
  const elapsedMs = (): number => Number(process.hrtime.bigint() - start) / 1e6;
  let next = 0;
  while (next < items.length) {
    const due = Math.min(items.length, Math.floor((elapsedMs() * perSecond) / 1000) + 1);
    for (; next < due; next += 1) {
      const dueMs = (next * 1000) / perSecond;
      running.push(
        work(items[next]!).then(() => {
          const end = elapsedMs();
          ms.push(end - dueMs);
          firstEnd = Math.min(firstEnd, end);
          lastEnd = Math.max(lastEnd, end);
        }),
      );
    }
    // A 1 ms timer rather than a spin: the load shares the two cores with the server.
    if (next < items.length) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(running);
  return { ms, endsPerSecond: ((items.length - 1) * 1000) / (lastEnd - firstEnd) };
}

const percentile = (sorted: number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function createAccounts(env: NodeJS.ProcessEnv, count: number): Promise<Account[]> {
  const config = loadConfig({ ...env, PROJECTIONS: 'on', ...CLI_ROLE });
  const app = await cliApplication(config, 'warn');
  try {
    const provider = app.get(IdentityProvider);
    if (!(provider instanceof BuiltInIdentityProvider)) throw new Error('built-in provider expected');
    const accounts: Account[] = [];
    const indexes = Array.from({ length: count }, (_, index) => index);
    await pool(indexes, 8, async (index) => {
      const user = await provider.users.create({
        email: `buyer-${index + 1}@example.sn`,
        password: 'bench-password-1',
        givenName: `Buyer ${index + 1}`,
        familyName: '',
        locale: 'fr',
        emailVerified: true,
      });
      await app.get(SignUpService).register(user._id, await provider.profile(user._id), 'fr');
      const token = await provider.signAccessToken(user._id, 120, config.oidc.clientId, config.oidc.audience);
      accounts.push({ userId: user._id, token, tracks: [] });
    });
    return accounts;
  } finally {
    await app.close();
  }
}

/** CREDITS mastering results in PREVIEW_READY per account, appended to the log. */
async function seedTracks(env: NodeJS.ProcessEnv, accounts: Account[]): Promise<void> {
  const stores = await openStores(loadConfig(env));
  try {
    for (const account of accounts) {
      for (let i = 0; i < CREDITS; i += 1) {
        account.tracks.push(await seedMasteredTrack(stores.events, account.userId, `Song ${i}.wav`));
      }
    }
  } finally {
    await closeStores(stores);
  }
}

async function startServer(env: NodeJS.ProcessEnv, port: number, probe: Account): Promise<ChildProcess> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, join(ROOT, 'backend/dist/main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      // Ready when the read models show the last account's tracks (the projections catch up at start).
      const answer = await call(port, 'GET', `/api/audio/track/${probe.tracks.at(-1)}`, probe.token);
      if (answer.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}

async function main(): Promise<void> {
  const count = positiveIntegerArgument('--accounts', 2_000);
  const rate = positiveIntegerArgument('--rate', 1_500);
  const dir = mkdtempSync(join(tmpdir(), 'kora-bench-billing-'));
  const port = 19_000 + Math.floor(Math.random() * 1_000);
  const env = {
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    WORKERS: '0',
    DEMO_TRACKS: 'off',
    SANDBOX_KNOBS: 'on',
  };
  const rows: string[] = [];
  try {
    process.stderr.write(`creating ${count} accounts...\n`);
    let started = Date.now();
    const accounts = await createAccounts(env, count);
    process.stderr.write(`  ${((Date.now() - started) / 1000).toFixed(1)} s; seeding ${count * CREDITS} tracks...\n`);
    await seedTracks(env, accounts);
    const server = await startServer(env, port, accounts.at(-1)!);
    try {
      // The sandbox's webhooks are off: our own capture call is the only report, as when webhooks are not set up.
      await call(port, 'PUT', '/sandbox/knobs', null, { webhooks: false });
      process.stderr.write(`purchases: ${count} packs, ${PURCHASE_CONCURRENCY} accounts at a time...\n`);
      const purchaseMs: number[] = [];
      let purchaseErrors = 0;
      started = Date.now();
      await pool(accounts, PURCHASE_CONCURRENCY, async (account) => {
        const t0 = process.hrtime.bigint();
        const intent = await call(port, 'POST', '/api/payments/createIntent', account.token, {
          provider: 'PAYPAL',
          currency: 'USD',
          planId: 'mastering-starter',
          billingCycle: 'MONTHLY',
          paymentType: 'PACK',
        });
        const orderId = intent.body.orderId as string;
        const approve = await call(port, 'POST', `/sandbox/paypal/orders/${orderId}/approve`, null, {});
        const capture = await call(port, 'POST', `/api/payments/paypal/capture/${orderId}`, account.token);
        if (intent.status !== 201 || approve.status !== 200 || capture.status !== 200) purchaseErrors += 1;
        purchaseMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      });
      const purchaseSeconds = (Date.now() - started) / 1000;
      purchaseMs.sort((a, b) => a - b);
      rows.push(
        `| purchases (createIntent + approval + capture), ${PURCHASE_CONCURRENCY} accounts at a time: packs/s | ${(count / purchaseSeconds).toFixed(0)} | - |`,
        `| purchase, the three calls: p50 / p99 | ${percentile(purchaseMs, 0.5).toFixed(1)} / ${percentile(purchaseMs, 0.99).toFixed(1)} ms | - |`,
        `| purchases failed | ${purchaseErrors} | 0 |`,
      );

      // Interleave the accounts, so concurrent requests are of many accounts (and some of the same one).
      const unlocksOf = (some: Account[]) =>
        some
          .flatMap((account) => account.tracks.map((trackId, index) => ({ account, trackId, index })))
          .sort((a, b) => a.index - b.index);
      const half = Math.ceil(accounts.length / 2);
      const statuses = new Map<number, number>();
      const unlock = async ({ account, trackId }: { account: Account; trackId: string }): Promise<number> => {
        const answer = await call(port, 'POST', `/api/audio/track/${trackId}/master`, account.token, { credit: true });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 200 && answer.body.creditsUsed !== 1) statuses.set(-1, (statuses.get(-1) ?? 0) + 1);
        return answer.ms;
      };

      const capacity = unlocksOf(accounts.slice(0, half));
      process.stderr.write(`unlocks, capacity: ${capacity.length} credits spent, ${UNLOCK_CONCURRENCY} in flight...\n`);
      const closedMs: number[] = [];
      started = Date.now();
      const cpuBefore = cpuSeconds(server.pid);
      const loadCpuBefore = cpuSeconds(process.pid);
      await pool(capacity, UNLOCK_CONCURRENCY, async (item) => void closedMs.push(await unlock(item)));
      const closedSeconds = (Date.now() - started) / 1000;
      const unlockCpu = cpuSeconds(server.pid) - cpuBefore;
      const loadCpu = cpuSeconds(process.pid) - loadCpuBefore;
      closedMs.sort((a, b) => a - b);

      const load = unlocksOf(accounts.slice(half));
      process.stderr.write(`unlocks, target load: ${load.length} credits spent at ${rate}/s...\n`);
      const open = await openLoop(load, rate, async (item) => void (await unlock(item)));
      open.ms.sort((a, b) => a - b);
      const latencies = (sorted: number[]) =>
        `${percentile(sorted, 0.5).toFixed(1)} / ${percentile(sorted, 0.99).toFixed(1)} / ${sorted.at(-1)!.toFixed(1)} ms`;
      rows.push(
        `| capacity: unlocks by credit, ${UNLOCK_CONCURRENCY} in flight (closed loop), ${capacity.length} unlocks: unlocks/s | ${(capacity.length / closedSeconds).toFixed(0)} | - |`,
        `| capacity: latency p50 / p99 / max (the queue of ${UNLOCK_CONCURRENCY}: its mean is ${UNLOCK_CONCURRENCY} over the rate) | ${latencies(closedMs)} | - |`,
        `| server CPU per unlock in the capacity phase (user + system, every thread, /proc; less host noise than the rate) | ${((unlockCpu / capacity.length) * 1e6).toFixed(0)} us | - |`,
        `| this process's CPU per unlock (the load generator, on the same cores) | ${((loadCpu / capacity.length) * 1e6).toFixed(0)} us | - |`,
        `| target load: ${load.length} unlocks sent at ${rate}/s (open loop): answers per second | ${open.endsPerSecond.toFixed(0)} | >= 1,500 |`,
        `| target load: latency from each request's due time, p50 / p99 / max | ${latencies(open.ms)} | p99 < 50 ms |`,
        `| unlock answers, both phases | ${[...statuses].map(([status, n]) => `${status === -1 ? 'no credit used' : status}: ${n}`).join(', ')} | 200 only |`,
      );
    } finally {
      await stopServer(server);
    }

    process.stderr.write('npm run audit over the result...\n');
    const auditStarted = Date.now();
    const audit = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [...AUDIT_NODE_ARGS, join(ROOT, 'backend/dist/cli/audit.js'), '--csv'],
        { env, maxBuffer: 256 << 20 },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      );
    });
    const auditSeconds = (Date.now() - auditStarted) / 1000;
    const text = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        [...AUDIT_NODE_ARGS, join(ROOT, 'backend/dist/cli/audit.js')],
        { env, maxBuffer: 256 << 20 },
        (_e, out) => resolve(out),
      );
    });
    const replay = /Replayed (\d+) events .* in (\d+) ms \(([\d,]+) events\/s\)/.exec(text);
    const violations = audit.stdout.split('\n').filter((line) => line.startsWith('violation,')).length;
    rows.push(
      `| npm run audit: exit code, violations | ${audit.code}, ${violations} | 0, 0 |`,
      `| audit replay: events, time, rate | ${replay?.[1] ?? '?'} events, ${replay?.[2] ?? '?'} ms, ${replay?.[3] ?? '?'} events/s | >= 100,000 events/s |`,
      `| audit command, wall time (process start, stores, replay, read-model comparison, report) | ${auditSeconds.toFixed(2)} s | - |`,
    );
    const revenue = audit.stdout.split('\n').filter((line) => line.startsWith('revenue,'));
    rows.push(`| audit revenue rows | ${revenue.join('; ')} | USD PAYPAL ${count} x 19.99 |`);

    console.log(
      `Billing on the embedded defaults, ${count} accounts (${cpus().length} cores, ${cpus()[0]?.model ?? ''}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})\n`,
    );
    console.log('| measure | value | target |');
    console.log('|---|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    await pool256?.close();
    if (process.env.BENCH_KEEP_DATA) console.log(`\nData directory kept (BENCH_KEEP_DATA): ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
