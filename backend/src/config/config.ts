import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the server reads, validated once at boot. With none set, everything runs embedded
 * under ./data on port 8080. `docs/operations.md` explains each one.
 */
const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  );

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: url(['http', 'https']).optional(),
  WEB_ORIGIN: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((origin) => origin.trim()) : []))
    .pipe(z.array(url(['http', 'https']))),
  WEB_DIST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  EVENTSTORE_URL: url(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kdb', 'kdb+discover']).optional(),
  MONGODB_URL: url(['mongodb', 'mongodb+srv']).optional(),
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  BLOB_STORE: z.enum(['local', 'gridfs']).default('local'),
  HEALTH_MIN_FREE_MB: z.coerce.number().int().min(0).default(500),
  /**
   * Where resumable uploads keep their partial files (default DATA_DIR/uploads). With several API replicas, an
   * upload's requests must reach one of them (docs/api.md, "Resumable uploads").
   */
  UPLOAD_STAGING_DIR: z.string().min(1).optional(),
  /**
   * The operators' bearer token for `/metrics` and the detailed `/api/health` report; unset, metrics are refused and
   * health answers only its status and the names of failing checks.
   */
  OPS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Sweeping leftovers of interrupted work at all: off in command lines, which come and go. */
  ORPHAN_SWEEP: z.enum(['on', 'off']).default('on'),
  /** How often leftovers of interrupted work (partial uploads, scratch folders) are swept; 0: only at start. */
  SWEEP_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
  /** How long a leftover must have been untouched before it is swept (others may share DATA_DIR and the temp dir). */
  SWEEP_MIN_AGE_SECONDS: z.coerce.number().int().min(0).max(604_800).default(3_600),
  PROJECTIONS: z.enum(['on', 'off']).default('on'),
  /**
   * Where the projections run with both stores embedded: `on`, a worker thread of their own (`ProjectionThread`);
   * `off`, the event loop that answers requests. With an external store they run on the event loop.
   */
  PROJECTIONS_THREAD: z.enum(['on', 'off']).default('on'),
  /** Where the embedded database's write-ahead log is copied back into its file: a thread of its own, or commits. */
  SQLITE_CHECKPOINTS: z.enum(['thread', 'inline']).default('thread'),
  /** Processors (reactions such as notifications and cleanups); off on API replicas and in command lines. */
  PROCESSORS: z.enum(['on', 'off']).default('on'),
  /** Processing jobs this process runs at once; 0 on API replicas beside workers. */
  WORKERS: z.coerce.number().int().min(0).max(64).default(1),
  /** Every new account gets one demo track per service (made once per installation). */
  DEMO_TRACKS: z.enum(['on', 'off']).default('on'),
  /**
   * A folder shared by installations on one machine (a test run's servers, several local servers): the first to make
   * the demo material keeps it there and the others copy it instead of making it again. Unset: each makes its own.
   */
  DEMO_CACHE_DIR: z.string().min(1).optional(),
  /**
   * Where jobs wait for workers: `eventstore` (competing consumers of a persistent subscription; needs
   * EVENTSTORE_URL) or `readstore` (leases in the read store). `auto`: eventstore when EVENTSTORE_URL is set.
   */
  JOB_QUEUE: z.enum(['auto', 'readstore', 'eventstore']).default('auto'),
  /** How long a worker holds a job without renewing before another may take it (read-store queue). */
  JOB_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(15_000),
  /** A catalogue file (plans and prices) replacing the built-in one; see docs/operations.md, "Catalogue". */
  BILLING_CATALOGUE: z.string().min(1).optional(),
  /** How often the payment reconciler asks the providers about pending payments; 0: only at start. */
  BILLING_RECONCILE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** How old a pending payment must be before the reconciler asks about it. */
  BILLING_RECONCILE_MIN_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
  /** How often packs past their end date are looked for and their credits expired; 0: only at start. */
  BILLING_EXPIRY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Where payment anomalies (money that does not match its sale) are mailed; they are logged as errors in any case. */
  BILLING_OPERATOR_EMAIL: z.string().email().optional(),
  /** Seconds an Orange Money QR code stays payable. */
  ORANGE_MONEY_QR_VALIDITY_SECONDS: z.coerce.number().int().min(60).max(86_400).default(300),
  /** Signs the payment sandbox's callbacks (generated under DATA_DIR/secrets when unset). */
  PAYMENT_SANDBOX_SECRET: z.string().min(1).optional(),
  /**
   * Whether each provider is offered. `on` (default): live with its credentials, else the built-in sandbox, which
   * never runs beside a live provider; `off`: not offered (neither in the pay panel nor at its routes).
   */
  PAYPAL: z.enum(['on', 'off']).default('on'),
  ORANGE_MONEY: z.enum(['on', 'off']).default('on'),
  /**
   * `on` opens the payment sandbox's knobs (`/sandbox/knobs`: declines, failures, delays for everyone) to anyone who
   * reaches the server: a development machine or a test run only. Off, they answer only the operators' token.
   */
  SANDBOX_KNOBS: z.enum(['on', 'off']).default('off'),
  /** PayPal REST credentials: with PAYPAL_CLIENT_ID set, PayPal is real (else the built-in sandbox). */
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  /** Which PayPal: sandbox (https://api-m.sandbox.paypal.com) or live (https://api-m.paypal.com). */
  PAYPAL_ENV: z.enum(['sandbox', 'live']).default('sandbox'),
  /** Replaces the base URL PAYPAL_ENV picks (a proxy, a fake in tests). */
  PAYPAL_API_BASE: url(['https', 'http']).optional(),
  /** The webhook's id in PayPal's dashboard, for verifying deliveries; unset, webhooks are refused. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  /** Orange Money (Sonatel) REST credentials: with ORANGE_MONEY_CLIENT_ID set, Orange Money is real. */
  ORANGE_MONEY_CLIENT_ID: z.string().min(1).optional(),
  ORANGE_MONEY_CLIENT_SECRET: z.string().min(1).optional(),
  /** The merchant code payments go to. */
  ORANGE_MONEY_MERCHANT_CODE: z.string().min(1).optional(),
  /** The API key registered with the callback URL (`npm run billing -- orange-money register-callback`). */
  ORANGE_MONEY_CALLBACK_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * How Sonatel's callbacks carry that key: `basic` (`Authorization: Basic <key>`) or `x-api-key` (a header). Check
   * it with a 10 XOF live payment before opening to the public (docs/operations.md).
   */
  ORANGE_MONEY_CALLBACK_AUTH: z.enum(['basic', 'x-api-key']).default('basic'),
  /** When set, callbacks must carry `X-Sonatel-Signature`, the HMAC-SHA256 of their raw body with this secret. */
  ORANGE_MONEY_CALLBACK_HMAC_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  ORANGE_MONEY_API_BASE: url(['https', 'http']).default('https://api.sandbox.orange-sonatel.com'),
  /** How long a payment provider's call may take before it counts as unavailable. */
  PAYMENT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * How much lower than the server the audio engine's threads and tools are scheduled (nice values; Linux): the
   * requests get the CPU first, the jobs take what is left. 0: the same priority.
   */
  JOB_NICENESS: z.coerce.number().int().min(0).max(19).default(10),
  LINK_SECRET: z.string().min(32, 'must be 32 bytes, hex or base64').optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  OIDC_ISSUER_URL: url(['https', 'http']).optional(),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('Kora <no-reply@kora.local>'),
  /**
   * `on`: /dev/outbox shows the outbox's mails (reset links included) to anyone who reaches the server; for a
   * development machine or a test run only. Off, it answers only the operators' token (OPS_TOKEN).
   */
  DEV_OUTBOX: z.enum(['on', 'off']).default('off'),
  ENCRYPTION_KEY: z.string().min(32, 'must be 32 bytes, hex or base64').optional(),
  // 0 turns the schedule off (one replica may run it for the cluster); at most once a day.
  PURGE_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
});

export type RawConfig = z.infer<typeof schema>;

export interface Config extends Omit<RawConfig, 'DATA_DIR'> {
  /** Absolute path. */
  readonly DATA_DIR: string;
  readonly embedded: {
    readonly eventStore: boolean;
    readonly readStore: boolean;
    readonly identity: boolean;
    readonly mail: boolean;
  };
  /** The job queue adapter JOB_QUEUE resolves to. */
  readonly jobQueue: 'readstore' | 'eventstore';
  /**
   * Where users reach the product: PUBLIC_URL, else http://localhost:PORT. No trailing slash. The one address of the
   * web app (pages asked for on another host are redirected to it), of the built-in issuer, its cookies and links.
   */
  readonly publicUrl: string;
  /** PUBLIC_URL is https: every cookie the server sets carries `Secure`. */
  readonly secureCookies: boolean;
  readonly oidc: {
    /** The issuer whose tokens the API trusts: OIDC_ISSUER_URL, else the built-in provider at PUBLIC_URL/oidc. */
    readonly issuer: string;
    readonly audience: string;
    readonly clientId: string;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError with one readable line per bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? 'config');
      const value = env[key];
      const shown = /SECRET|URL|TOKEN|KEY/.test(key) ? '' : ` (got ${JSON.stringify(value)})`;
      return `${key}: ${issue.message}${value === undefined ? '' : shown}`;
    });
    throw new ConfigError(problems);
  }
  const raw = parsed.data;
  if (raw.BLOB_STORE === 'gridfs' && !raw.MONGODB_URL) {
    throw new ConfigError(['BLOB_STORE: gridfs needs MONGODB_URL']);
  }
  if (raw.JOB_QUEUE === 'eventstore' && !raw.EVENTSTORE_URL) {
    throw new ConfigError(['JOB_QUEUE: eventstore needs EVENTSTORE_URL']);
  }
  const providerProblems = paymentProviderProblems(raw);
  if (providerProblems.length > 0) throw new ConfigError(providerProblems);
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, '');
  return {
    ...raw,
    DATA_DIR: resolve(raw.DATA_DIR),
    embedded: {
      eventStore: raw.EVENTSTORE_URL === undefined,
      readStore: raw.MONGODB_URL === undefined,
      identity: raw.OIDC_ISSUER_URL === undefined,
      mail: raw.SMTP_URL === undefined,
    },
    jobQueue: raw.JOB_QUEUE === 'auto' ? (raw.EVENTSTORE_URL ? 'eventstore' : 'readstore') : raw.JOB_QUEUE,
    publicUrl,
    secureCookies: new URL(publicUrl).protocol === 'https:',
    oidc: {
      // Kept exactly as configured: some issuers (Auth0) end theirs with a slash, and `iss` must match it.
      issuer: raw.OIDC_ISSUER_URL ?? `${publicUrl}/oidc`,
      audience: raw.OIDC_AUDIENCE ?? `${publicUrl}/api`,
      clientId: raw.OIDC_CLIENT_ID ?? 'kora-web',
    },
  };
}

/** A real provider needs all of its settings; half a configuration stops the server at start. */
function paymentProviderProblems(raw: RawConfig): string[] {
  const problems: string[] = [];
  if (raw.PAYPAL_CLIENT_ID && !raw.PAYPAL_CLIENT_SECRET) {
    problems.push('PAYPAL_CLIENT_SECRET: required with PAYPAL_CLIENT_ID (PayPal REST)');
  }
  if (!raw.PAYPAL_CLIENT_ID && (raw.PAYPAL_CLIENT_SECRET || raw.PAYPAL_WEBHOOK_ID || raw.PAYPAL_API_BASE)) {
    problems.push('PAYPAL_CLIENT_ID: required with PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID or PAYPAL_API_BASE');
  }
  const orange = {
    ORANGE_MONEY_CLIENT_SECRET: raw.ORANGE_MONEY_CLIENT_SECRET,
    ORANGE_MONEY_MERCHANT_CODE: raw.ORANGE_MONEY_MERCHANT_CODE,
    ORANGE_MONEY_CALLBACK_API_KEY: raw.ORANGE_MONEY_CALLBACK_API_KEY,
  };
  if (raw.ORANGE_MONEY_CLIENT_ID) {
    for (const [key, value] of Object.entries(orange)) {
      if (!value) problems.push(`${key}: required with ORANGE_MONEY_CLIENT_ID (Orange Money REST)`);
    }
  } else if (Object.values(orange).some(Boolean)) {
    problems.push(`ORANGE_MONEY_CLIENT_ID: required with ${Object.keys(orange).join(', ')}`);
  }
  if (raw.PAYPAL === 'off' && raw.PAYPAL_CLIENT_ID) problems.push('PAYPAL: off, yet PAYPAL_CLIENT_ID is set');
  if (raw.ORANGE_MONEY === 'off' && raw.ORANGE_MONEY_CLIENT_ID) {
    problems.push('ORANGE_MONEY: off, yet ORANGE_MONEY_CLIENT_ID is set');
  }
  // The sandbox pays without money: beside a live provider it would hand out what the live one sells.
  const live = { PAYPAL: Boolean(raw.PAYPAL_CLIENT_ID), ORANGE_MONEY: Boolean(raw.ORANGE_MONEY_CLIENT_ID) };
  const names = { PAYPAL: 'PayPal', ORANGE_MONEY: 'Orange Money' } as const;
  for (const [provider, other] of [
    ['ORANGE_MONEY', 'PAYPAL'],
    ['PAYPAL', 'ORANGE_MONEY'],
  ] as const) {
    if (live[other] && !live[provider] && raw[provider] === 'on') {
      problems.push(
        `${provider}: ${names[other]} is live and ${names[provider]} is not configured; the built-in sandbox never ` +
          `runs beside a live provider: set ${provider}_CLIENT_ID (and the rest of ${provider}_*) or ${provider}=off`,
      );
    }
  }
  return problems;
}

/** Injection token for the validated configuration. */
export const CONFIG = Symbol('CONFIG');
