import {
  PayPalGateway,
  type PayPalOrder,
  type PayPalWebhookEvent,
  parseJson,
  ProviderRefusal,
  ProviderUnavailable,
} from '../port';
import { providerCall, type ProviderAnswer, TokenCache } from './http';

export interface PayPalRestOptions {
  clientId: string;
  clientSecret: string;
  /** https://api-m.sandbox.paypal.com, https://api-m.paypal.com, or a fake's address in tests. */
  apiBase: string;
  /** The webhook's id in the PayPal developer dashboard; without it every webhook is refused. */
  webhookId?: string;
  timeoutMs: number;
  brandName?: string;
}

export const PAYPAL_API_BASES = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
} as const;

/**
 * Issues that end the payment for good: the customer's instrument or account refused it. Anything else (not approved
 * yet, already captured, a bad request of ours) leaves the payment pending.
 */
const FINAL_ISSUES = new Set([
  'INSTRUMENT_DECLINED',
  'TRANSACTION_REFUSED',
  'PAYER_CANNOT_PAY',
  'PAYER_ACCOUNT_RESTRICTED',
  'PAYER_ACCOUNT_LOCKED_OR_CLOSED',
  'PAYEE_ACCOUNT_RESTRICTED',
  'PAYEE_BLOCKED_TRANSACTION',
  'MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED',
  'CARD_EXPIRED',
  'COMPLIANCE_VIOLATION',
  'ORDER_EXPIRED',
  'ORDER_VOIDED',
  'RESOURCE_NOT_FOUND',
]);

/** PayPal's error body: `{ name, message, debug_id, details: [{ issue, description }] }`. */
interface PayPalError {
  name?: string;
  message?: string;
  debug_id?: string;
  details?: Array<{ issue?: string; description?: string }>;
}

const WEBHOOK_HEADERS = [
  'paypal-transmission-id',
  'paypal-transmission-time',
  'paypal-transmission-sig',
  'paypal-cert-url',
  'paypal-auth-algo',
] as const;

/** A request body already serialised (sent as is). */
class RawJson {
  constructor(readonly text: string) {}
}

/** PayPal Orders v2 over REST, with an OAuth2 client-credentials token cached until it expires. */
export class PayPalRestGateway extends PayPalGateway {
  private readonly tokens: TokenCache;
  private readonly base: string;

  constructor(private readonly options: PayPalRestOptions) {
    super();
    this.base = options.apiBase.replace(/\/+$/, '');
    this.tokens = new TokenCache(() => this.fetchToken());
  }

  private async fetchToken(): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    const answer = await providerCall(
      'PayPal',
      `${this.base}/v1/oauth2/token`,
      {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      },
      this.options.timeoutMs,
    );
    const body = answer.body as { access_token?: string; expires_in?: number; error?: string } | null;
    if (answer.status !== 200 || !body?.access_token) {
      // A refused client id or secret is a configuration error: nothing about the payment can be concluded.
      throw new ProviderUnavailable(
        `PayPal: no access token (HTTP ${answer.status}${body?.error ? `, ${body.error}` : ''})`,
      );
    }
    return { accessToken: body.access_token, expiresInSeconds: Number(body.expires_in ?? 300) };
  }

  /** An authenticated JSON call; a 401 renews the token once. */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ProviderAnswer> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.tokens.get();
      const answer = await providerCall(
        'PayPal',
        `${this.base}${path}`,
        {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...headers,
          },
          ...(body === undefined ? {} : { body: body instanceof RawJson ? body.text : JSON.stringify(body) }),
        },
        this.options.timeoutMs,
      );
      if (answer.status === 401 && attempt === 0) {
        this.tokens.clear();
        continue;
      }
      return answer;
    }
  }

  /** A 2xx answer's order, or the refusal its error means. */
  private order(answer: ProviderAnswer, what: string): PayPalOrder {
    if (answer.status >= 200 && answer.status < 300) {
      const order = answer.body as PayPalOrder | null;
      if (!order?.id) throw new ProviderUnavailable(`PayPal: ${what} answered ${answer.status} without an order`);
      return { ...order, purchase_units: order.purchase_units ?? [], links: order.links ?? [] };
    }
    throw this.refusal(answer, what);
  }

  private refusal(answer: ProviderAnswer, what: string): Error {
    const error = (answer.body ?? {}) as PayPalError;
    if (answer.status >= 500 || answer.status === 429 || answer.status === 401 || answer.status === 403) {
      return new ProviderUnavailable(
        `PayPal: ${what} answered ${answer.status} ${error.name ?? ''}${error.debug_id ? ` (debug_id ${error.debug_id})` : ''}`.trim(),
      );
    }
    const detail = error.details?.[0];
    const issue = detail?.issue ?? error.name ?? `HTTP_${answer.status}`;
    const message = detail?.description ?? error.message ?? `PayPal refused the ${what}.`;
    return new ProviderRefusal(issue, message, FINAL_ISSUES.has(issue));
  }

  async createOrder(input: Parameters<PayPalGateway['createOrder']>[0]): Promise<PayPalOrder> {
    const answer = await this.call(
      'POST',
      '/v2/checkout/orders',
      {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: 'default',
            custom_id: input.customId,
            invoice_id: input.customId,
            description: input.description.slice(0, 127),
            amount: input.amount,
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              brand_name: this.options.brandName ?? 'Kora',
              shipping_preference: 'NO_SHIPPING',
              user_action: 'PAY_NOW',
              return_url: input.returnUrl,
              cancel_url: input.cancelUrl,
            },
          },
        },
      },
      { 'PayPal-Request-Id': input.requestId, Prefer: 'return=representation' },
    );
    return this.order(answer, 'order creation');
  }

  /**
   * Captures an approved order. The order is read first: a capture request goes out only once the payer approved,
   * so the answer PayPal keeps under its `PayPal-Request-Id` is the capture's real outcome, never an early
   * ORDER_NOT_APPROVED that a retry with the same id would get back; an order already completed is answered as is.
   */
  async captureOrder(orderId: string, requestId: string): Promise<PayPalOrder> {
    const current = await this.getOrder(orderId);
    if (current.status === 'COMPLETED') return current;
    if (current.status !== 'APPROVED') {
      throw new ProviderRefusal(
        current.status === 'VOIDED' ? 'ORDER_VOIDED' : 'ORDER_NOT_APPROVED',
        'Payer has not yet approved the Order for payment.',
        current.status === 'VOIDED',
      );
    }
    const answer = await this.call(
      'POST',
      `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
      {},
      // Its own idempotency key: a repeat of this capture answers the first one's result.
      { 'PayPal-Request-Id': `${requestId}-capture`, Prefer: 'return=representation' },
    );
    return this.order(answer, 'capture');
  }

  async getOrder(orderId: string): Promise<PayPalOrder> {
    return this.order(await this.call('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`), 'order lookup');
  }

  /** Asks PayPal (`/v1/notifications/verify-webhook-signature`) whether the delivery is genuine. */
  async verifyWebhook(headers: Record<string, string | undefined>, raw: string): Promise<PayPalWebhookEvent | null> {
    if (!this.options.webhookId) return null;
    const values = WEBHOOK_HEADERS.map((name) => headers[name]);
    if (values.some((value) => !value)) return null;
    const event = parseJson(raw) as PayPalWebhookEvent | null;
    if (!event || typeof event !== 'object' || typeof event.event_type !== 'string') return null;
    const [transmissionId, transmissionTime, transmissionSig, certUrl, authAlgo] = values as string[];
    const fields = JSON.stringify({
      auth_algo: authAlgo,
      cert_url: certUrl,
      transmission_id: transmissionId,
      transmission_sig: transmissionSig,
      transmission_time: transmissionTime,
      webhook_id: this.options.webhookId,
    });
    // The event goes in as the bytes PayPal sent (already checked to be JSON), not re-serialised.
    const answer = await this.call(
      'POST',
      '/v1/notifications/verify-webhook-signature',
      new RawJson(`${fields.slice(0, -1)},"webhook_event":${raw}}`),
    );
    if (answer.status >= 500 || answer.status === 429 || answer.status === 401) {
      throw this.refusal(answer, 'webhook verification');
    }
    const verdict = (answer.body as { verification_status?: string } | null)?.verification_status;
    return answer.status === 200 && verdict === 'SUCCESS' ? { ...event, resource: event.resource ?? {} } : null;
  }
}
