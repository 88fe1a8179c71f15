import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  OrangeMoneyGateway,
  type OrangeMoneyQrCode,
  type OrangeMoneyStatus,
  type OrangeMoneyTransaction,
  parseJson,
  ProviderRefusal,
  ProviderUnavailable,
} from '../port';
import { providerCall, type ProviderAnswer, TokenCache } from './http';

export interface OrangeMoneyRestOptions {
  clientId: string;
  clientSecret: string;
  /** https://api.sandbox.orange-sonatel.com, https://api.orange-sonatel.com, or a fake's address in tests. */
  apiBase: string;
  /** The merchant code payments go to (shown beside the QR code). */
  merchantCode: string;
  /** The API key Sonatel sends with every callback, as registered with the callback URL. */
  callbackApiKey: string;
  /**
   * How a callback carries that key: `basic` (`Authorization: Basic <apiKey>`, what Sonatel's merchant callbacks are
   * documented to send) or `x-api-key` (a header of that name). A documented setting rather than a guess: check it
   * with a 10 XOF live payment (docs/operations.md).
   */
  callbackAuth?: 'basic' | 'x-api-key';
  /** When set, a callback must also carry `X-Sonatel-Signature`: the HMAC-SHA256 of its raw body with this secret. */
  callbackHmacSecret?: string;
  timeoutMs: number;
}

export const ORANGE_MONEY_SANDBOX_BASE = 'https://api.sandbox.orange-sonatel.com';
const STATUSES: readonly OrangeMoneyStatus[] = [
  'INITIATED',
  'PENDING',
  'SUCCESS',
  'FAILED',
  'CANCELLED',
  'EXPIRED',
  'REFUNDED',
];
/**
 * Sonatel's other words for them. ACCEPTED and PRE_INITIATED are transient (the wallet took the request, the money
 * has not moved): pending, never a success.
 */
const OTHER_WORDS: Record<string, OrangeMoneyStatus> = {
  ACCEPTED: 'PENDING',
  PRE_INITIATED: 'PENDING',
  COMPLETED: 'SUCCESS',
  SUCCESSFUL: 'SUCCESS',
  REJECTED: 'FAILED',
  DECLINED: 'FAILED',
  CANCELED: 'CANCELLED',
  REVERSED: 'REFUNDED',
};

/** A transaction as Sonatel describes it (status call or callback). */
interface SonatelTransaction {
  transactionId?: string;
  reference?: string;
  status?: string;
  amount?: { unit?: string; value?: number | string };
  metadata?: Record<string, string>;
  partner?: { idType?: string; id?: string };
}

function statusOf(text: unknown): OrangeMoneyStatus | null {
  if (typeof text !== 'string') return null;
  const upper = text.toUpperCase();
  if ((STATUSES as readonly string[]).includes(upper)) return upper as OrangeMoneyStatus;
  return OTHER_WORDS[upper] ?? null;
}

/** Compares two secrets in constant time (their SHA-256, so lengths leak nothing either). */
function sameSecret(expected: string, given: string | undefined | null): boolean {
  if (given === undefined || given === null) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** The API key a callback carries in the configured scheme, or null. */
function callbackKey(headers: Record<string, string | undefined>, scheme: 'basic' | 'x-api-key'): string | null {
  if (scheme === 'x-api-key') return headers['x-api-key'] ?? null;
  return /^Basic\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim() ?? null;
}

/** `X-Sonatel-Signature`: the HMAC-SHA256 of the raw body, hex (optionally `sha256=`-prefixed) or base64. */
function sameHmac(secret: string, raw: string, given: string | undefined): boolean {
  if (!given) return false;
  const digest = createHmac('sha256', secret).update(raw).digest();
  const value = given.trim().replace(/^sha256=/i, '');
  // Every form is compared (constant time each), whatever the first gives.
  return [digest.toString('hex'), digest.toString('base64')]
    .map((expected) => sameSecret(expected, value))
    .some(Boolean);
}

/**
 * Orange Money (Sonatel) web payment by QR code over REST: an OAuth2 client-credentials token cached until it
 * expires, `POST /api/eWallet/v4/qrcode`, the status by our reference, and callbacks checked by their API key.
 */
export class OrangeMoneyRestGateway extends OrangeMoneyGateway {
  readonly merchantCode: string;
  private readonly tokens: TokenCache;
  private readonly base: string;

  constructor(private readonly options: OrangeMoneyRestOptions) {
    super();
    this.merchantCode = options.merchantCode;
    this.base = options.apiBase.replace(/\/+$/, '');
    this.tokens = new TokenCache(() => this.fetchToken());
  }

  private async fetchToken(): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    const answer = await providerCall(
      'Orange Money',
      `${this.base}/oauth/v1/token`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
      },
      this.options.timeoutMs,
    );
    const body = answer.body as { access_token?: string; expires_in?: number } | null;
    if (answer.status !== 200 || !body?.access_token) {
      throw new ProviderUnavailable(`Orange Money: no access token (HTTP ${answer.status})`);
    }
    return { accessToken: body.access_token, expiresInSeconds: Number(body.expires_in ?? 300) };
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ProviderAnswer> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.tokens.get();
      const answer = await providerCall(
        'Orange Money',
        `${this.base}${path}`,
        {
          method,
          // Sonatel's gateway answers 415 to a call without this header, a GET included.
          headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        this.options.timeoutMs,
      );
      if (answer.status === 401 && attempt === 0) {
        this.tokens.clear();
        continue;
      }
      if (answer.status >= 500 || answer.status === 429 || answer.status === 401 || answer.status === 403) {
        throw new ProviderUnavailable(`Orange Money: ${method} ${path.split('?')[0]} answered ${answer.status}`);
      }
      return answer;
    }
  }

  private refusal(answer: ProviderAnswer, what: string): ProviderRefusal {
    const body = (answer.body ?? {}) as { code?: string; title?: string; detail?: string; message?: string };
    const issue = String(body.code ?? `HTTP_${answer.status}`);
    return new ProviderRefusal(
      issue,
      body.detail ?? body.message ?? body.title ?? `Orange Money refused the ${what}.`,
      false,
    );
  }

  async createQrCode(input: Parameters<OrangeMoneyGateway['createQrCode']>[0]): Promise<OrangeMoneyQrCode> {
    const metadata = { reference: input.reference };
    const answer = await this.call('POST', '/api/eWallet/v4/qrcode', {
      amount: input.amount,
      callbackCancelUrl: input.callbackCancelUrl,
      callbackSuccessUrl: input.callbackSuccessUrl,
      code: this.merchantCode,
      metadata,
      name: input.name,
      validity: input.validity,
      reference: input.reference,
    });
    if (answer.status < 200 || answer.status >= 300) throw this.refusal(answer, 'QR code');
    const qr = answer.body as Partial<OrangeMoneyQrCode> | null;
    if (!qr?.qrCode || !qr.deepLinks) {
      throw new ProviderUnavailable(`Orange Money: the QR code answer (${answer.status}) has no qrCode or deepLinks`);
    }
    return {
      qrId: qr.qrId ?? input.reference,
      qrCode: qr.qrCode,
      deepLink: qr.deepLink ?? qr.deepLinks.OM,
      deepLinks: { OM: qr.deepLinks.OM, MAXIT: qr.deepLinks.MAXIT },
      shortLink: qr.shortLink ?? qr.deepLinks.OM,
      validity: Number(qr.validity ?? input.validity),
      metadata: { ...metadata, ...(qr.metadata ?? {}) },
    };
  }

  private transaction(found: SonatelTransaction, reference: string): OrangeMoneyTransaction | null {
    const status = statusOf(found.status);
    if (!status) return null;
    const value = typeof found.amount?.value === 'string' ? Number(found.amount.value) : found.amount?.value;
    const known = found.amount?.unit === 'XOF' && typeof value === 'number' && Number.isInteger(value) && value >= 0;
    return {
      transactionId: found.transactionId ?? null,
      reference: found.metadata?.reference ?? found.reference ?? reference,
      status,
      amount: known ? { unit: 'XOF', value } : null,
      metadata: found.metadata ?? {},
    };
  }

  /** `GET /api/eWallet/v1/transactions?reference=`: no transaction yet is INITIATED (nobody has paid). */
  async getTransaction(reference: string): Promise<OrangeMoneyTransaction> {
    const answer = await this.call('GET', `/api/eWallet/v1/transactions?reference=${encodeURIComponent(reference)}`);
    if (answer.status === 404) {
      return { transactionId: null, reference, status: 'INITIATED', amount: null, metadata: {} };
    }
    if (answer.status < 200 || answer.status >= 300) throw this.refusal(answer, 'status');
    const body = answer.body as SonatelTransaction[] | { content?: SonatelTransaction[] } | SonatelTransaction | null;
    const list = Array.isArray(body)
      ? body
      : body && 'content' in body && Array.isArray(body.content)
        ? body.content
        : body && 'status' in body
          ? [body as SonatelTransaction]
          : [];
    const transactions = list
      .map((found) => this.transaction(found, reference))
      .filter((found): found is OrangeMoneyTransaction => found !== null);
    // A refund wins over the success it gave back, a success over earlier failed attempts of the same reference.
    const settled =
      transactions.find((t) => t.status === 'REFUNDED') ??
      transactions.find((t) => t.status === 'SUCCESS') ??
      transactions.find((t) => t.status === 'PENDING') ??
      transactions[0];
    return (
      settled ?? {
        transactionId: null,
        reference,
        status: 'INITIATED',
        amount: null,
        metadata: {},
      }
    );
  }

  /**
   * A callback counts when it carries the registered API key in the configured scheme (compared in constant time),
   * the HMAC of its raw body when a secret is configured, and names our merchant. It is only a hint: the caller
   * confirms a success with the status API before granting.
   */
  async verifyCallback(
    headers: Record<string, string | undefined>,
    raw: string,
  ): Promise<OrangeMoneyTransaction | null> {
    if (!sameSecret(this.options.callbackApiKey, callbackKey(headers, this.options.callbackAuth ?? 'basic'))) {
      return null;
    }
    const hmacSecret = this.options.callbackHmacSecret;
    if (hmacSecret && !sameHmac(hmacSecret, raw, headers['x-sonatel-signature'])) return null;
    const body = parseJson(raw);
    if (!body || typeof body !== 'object') return null;
    const callback = body as SonatelTransaction;
    if (callback.partner?.id && callback.partner.id !== this.merchantCode) return null;
    const reference = callback.metadata?.reference ?? callback.reference;
    if (!reference) return null;
    return this.transaction(callback, reference);
  }

  /**
   * Registers where Sonatel sends this merchant's payment callbacks, with the API key they carry
   * (`POST /api/notification/v1/merchantcallback`). Run once per environment: `npm run billing -- orange-money
   * register-callback`. Answers what Sonatel answered.
   */
  async registerCallback(callbackUrl: string, name: string): Promise<{ status: number; body: unknown }> {
    const answer = await this.call('POST', '/api/notification/v1/merchantcallback', {
      apiKey: this.options.callbackApiKey,
      code: this.merchantCode,
      name,
      callbackUrl,
    });
    if (answer.status < 200 || answer.status >= 300) throw this.refusal(answer, 'callback registration');
    return { status: answer.status, body: answer.body };
  }
}
