import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * Local fakes of the payment providers' REST APIs, on loopback, speaking their protocols: PayPal (OAuth2 client
 * credentials, Orders v2, webhook signature verification) and Orange Money / Sonatel (OAuth2, QR code payment,
 * transaction status, callbacks with the registered API key). Each records the requests it received.
 */
interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

abstract class FakeServer {
  readonly requests: Received[] = [];
  private server: Server | null = null;
  url = '';
  /** Answer every API call (not the token) with this status. */
  failWith: number | null = null;
  /** Hold every API call this long before answering. */
  delayMs = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const url = new URL(req.url ?? '/', 'http://fake');
        this.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
        const answer = async () => {
          if (this.delayMs > 0 && !url.pathname.includes('token')) {
            await new Promise((resolve) => setTimeout(resolve, this.delayMs));
          }
          this.handle(req.method ?? '', url, req.headers, body, res);
        };
        void answer().catch((error: unknown) => json(res, 500, { message: String(error) }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  requestsTo(path: string): Received[] {
    return this.requests.filter((r) => r.path.split('?')[0] === path);
  }

  protected abstract handle(
    method: string,
    url: URL,
    headers: IncomingMessage['headers'],
    body: string,
    res: ServerResponse,
  ): void;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const paypalError = (name: string, issue: string, description: string) => ({
  name,
  message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
  debug_id: randomBytes(6).toString('hex'),
  details: [{ issue, description }],
  links: [],
});

interface FakeOrder {
  id: string;
  status: string;
  intent: string;
  purchase_units: Array<Record<string, unknown>>;
  links: Array<{ href: string; rel: string; method: string }>;
  create_time: string;
}

/** PayPal captures the order's full amount: the order is COMPLETED with that capture. Answers the capture. */
function completeOrder(order: FakeOrder): Record<string, unknown> {
  const unit = order.purchase_units[0]!;
  const capture = {
    id: randomBytes(9).toString('hex').toUpperCase().slice(0, 17),
    status: 'COMPLETED',
    amount: unit.amount,
    custom_id: unit.custom_id,
    invoice_id: unit.invoice_id,
    final_capture: true,
  };
  order.status = 'COMPLETED';
  order.purchase_units = [{ ...unit, payments: { captures: [capture] } }];
  return capture;
}

export class FakePayPal extends FakeServer {
  readonly clientId = 'fake-paypal-client';
  readonly clientSecret = 'fake-paypal-secret';
  readonly webhookId = 'WH0FAKE0001';
  /** Signs the webhooks this fake sends (PayPal signs with its certificate; only PayPal can verify either way). */
  private readonly signingKey = randomBytes(32);
  readonly orders = new Map<string, FakeOrder>();
  private readonly byRequestId = new Map<string, { status: number; body: unknown }>();
  private readonly tokens = new Map<string, number>();
  tokenLifetimeSeconds = 32_400;
  /** The next capture is declined (INSTRUMENT_DECLINED). */
  declineCapture = false;

  protected handle(method: string, url: URL, headers: IncomingMessage['headers'], body: string, res: ServerResponse) {
    const path = url.pathname;
    if (method === 'POST' && path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
      if (headers.authorization !== expected || new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
        return json(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      }
      const token = `A21AA${randomBytes(12).toString('hex')}`;
      this.tokens.set(token, Date.now() + this.tokenLifetimeSeconds * 1000);
      return json(res, 200, {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-FAKE',
        expires_in: this.tokenLifetimeSeconds,
        nonce: randomBytes(8).toString('hex'),
      });
    }
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (!token || (this.tokens.get(token) ?? 0) < Date.now()) {
      return json(res, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    }
    if (this.failWith) return json(res, this.failWith, { name: 'INTERNAL_SERVER_ERROR', message: 'fake failure' });

    const requestId = headers['paypal-request-id'] as string | undefined;
    const replay = requestId ? this.byRequestId.get(`${path}|${requestId}`) : undefined;
    if (method === 'POST' && replay) return json(res, replay.status, replay.body);
    const remember = (status: number, answer: unknown) => {
      if (requestId) this.byRequestId.set(`${path}|${requestId}`, { status, body: answer });
      json(res, status, answer);
    };

    if (method === 'POST' && path === '/v2/checkout/orders') {
      const order = JSON.parse(body) as { intent?: string; purchase_units?: Array<Record<string, unknown>> };
      const unit = order.purchase_units?.[0] as { amount?: { currency_code?: string; value?: string } } | undefined;
      if (
        order.intent !== 'CAPTURE' ||
        !unit?.amount?.currency_code ||
        !/^\d+(\.\d{1,2})?$/.test(unit.amount.value ?? '')
      ) {
        return json(res, 400, paypalError('INVALID_REQUEST', 'INVALID_PARAMETER_VALUE', 'bad order'));
      }
      const id = randomBytes(9).toString('hex').toUpperCase().slice(0, 17);
      const created: FakeOrder = {
        id,
        status: 'PAYER_ACTION_REQUIRED',
        intent: 'CAPTURE',
        purchase_units: order.purchase_units!,
        links: [
          { href: `${this.url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
          { href: `https://www.sandbox.paypal.com/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
        ],
        create_time: new Date().toISOString(),
      };
      this.orders.set(id, created);
      return remember(201, created);
    }
    const match = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (match) {
      const order = this.orders.get(match[1]!);
      if (!order)
        return json(
          res,
          404,
          paypalError('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.'),
        );
      if (method === 'GET' && !match[2]) return json(res, 200, order);
      if (method === 'POST' && match[2]) {
        if (order.status === 'COMPLETED') {
          return remember(
            422,
            paypalError('UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.'),
          );
        }
        if (order.status !== 'APPROVED') {
          return remember(
            422,
            paypalError(
              'UNPROCESSABLE_ENTITY',
              'ORDER_NOT_APPROVED',
              'Payer has not yet approved the Order for payment.',
            ),
          );
        }
        if (this.declineCapture) {
          this.declineCapture = false;
          return remember(
            422,
            paypalError('UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED', 'The instrument presented was either declined.'),
          );
        }
        completeOrder(order);
        return remember(201, order);
      }
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const request = JSON.parse(body) as Record<string, unknown>;
      // PayPal checks the event's bytes as the caller passes them, which must be the bytes it sent: a re-serialised
      // event (keys, spacing, escapes, numbers written otherwise) fails, as it does at PayPal.
      const marker = body.indexOf('"webhook_event":');
      const rawEvent = marker < 0 ? '' : body.slice(marker + '"webhook_event":'.length, body.lastIndexOf('}'));
      const required = [
        'auth_algo',
        'cert_url',
        'transmission_id',
        'transmission_sig',
        'transmission_time',
        'webhook_id',
      ];
      if (required.some((key) => typeof request[key] !== 'string') || typeof request.webhook_event !== 'object') {
        return json(res, 400, paypalError('INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'missing field'));
      }
      const expected = this.sign(String(request.transmission_id), String(request.transmission_time), rawEvent);
      const ok = request.webhook_id === this.webhookId && request.transmission_sig === expected;
      return json(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }
    return json(res, 404, paypalError('NOT_FOUND', 'NOT_FOUND', `${method} ${path}`));
  }

  private sign(id: string, time: string, event: string): string {
    return createHmac('sha256', this.signingKey).update(`${id}|${time}|${this.webhookId}|${event}`).digest('base64');
  }

  /** The payer approves on PayPal's page. */
  approve(orderId: string): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    order.status = 'APPROVED';
  }

  /**
   * A signed webhook delivery as PayPal sends it: the event's bytes (`raw`; written with spaces and a `\u` escape, as
   * a JSON writer other than ours may, so that a re-serialisation of the parsed `body` differs), the event parsed, and
   * its transmission headers.
   */
  webhook(
    eventType: string,
    resource: Record<string, unknown>,
  ): { headers: Record<string, string>; body: Record<string, unknown>; raw: string } {
    const body = {
      id: `WH-${randomBytes(8).toString('hex').toUpperCase()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: eventType.startsWith('PAYMENT.CAPTURE') ? 'capture' : 'checkout-order',
      event_type: eventType,
      summary: `${eventType} \u2014 re\u00e7u`,
      resource,
    };
    const raw = JSON.stringify(body, null, 1).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    return { body: JSON.parse(raw) as Record<string, unknown>, raw, headers: this.transmission(raw) };
  }

  /** The transmission headers PayPal sends with these exact bytes (what its verification checks). */
  transmission(raw: string): Record<string, string> {
    const id = randomBytes(8).toString('hex');
    const time = new Date().toISOString();
    return {
      'content-type': 'application/json',
      'paypal-transmission-id': id,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': this.sign(id, time, raw),
      'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-FAKE',
      'paypal-auth-algo': 'SHA256withRSA',
    };
  }

  /**
   * The payer approves and PayPal captures without our capture call answering (the JS SDK's own capture, a lost
   * answer): the order is COMPLETED at PayPal only. Answers the capture.
   */
  captureAtPayPal(orderId: string): Record<string, unknown> {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    return completeOrder(order);
  }
}

interface FakeQr {
  reference: string;
  body: Record<string, unknown>;
  transactions: Array<Record<string, unknown>>;
}

/** A 1x1 PNG, base64: what Sonatel's `qrCode` carries is a PNG image. */
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export class FakeOrangeMoney extends FakeServer {
  readonly clientId = 'fake-om-client';
  readonly clientSecret = 'fake-om-secret';
  readonly merchantCode = '123456';
  readonly callbackApiKey = 'fake-callback-api-key-0123456789';
  /** Signs callbacks (`X-Sonatel-Signature`) when set, as newer versions of the API do. */
  hmacSecret: string | null = null;
  readonly qrs = new Map<string, FakeQr>();
  /** The merchant callbacks registered (`POST /api/notification/v1/merchantcallback`). */
  readonly callbacks: Array<Record<string, unknown>> = [];
  private readonly tokens = new Set<string>();

  protected handle(method: string, url: URL, headers: IncomingMessage['headers'], body: string, res: ServerResponse) {
    const path = url.pathname;
    if (method === 'POST' && path === '/oauth/v1/token') {
      const form = new URLSearchParams(body);
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_id') !== this.clientId ||
        form.get('client_secret') !== this.clientSecret
      ) {
        return json(res, 401, { error: 'invalid_client' });
      }
      const token = randomBytes(16).toString('hex');
      this.tokens.add(token);
      return json(res, 200, { access_token: token, token_type: 'bearer', expires_in: 300, scope: 'openid' });
    }
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (!token || !this.tokens.has(token)) return json(res, 401, { code: 401, title: 'Unauthorized' });
    // Sonatel's gateway refuses any call, a GET included, that does not say it speaks JSON.
    if (!/^application\/json/i.test(headers['content-type'] ?? '')) {
      return json(res, 415, { code: 415, title: 'Unsupported Media Type' });
    }
    if (this.failWith) return json(res, this.failWith, { code: this.failWith, title: 'fake failure' });
    if (method === 'POST' && path === '/api/notification/v1/merchantcallback') {
      const registration = JSON.parse(body) as Record<string, unknown>;
      if (registration.code !== this.merchantCode || typeof registration.callbackUrl !== 'string') {
        return json(res, 400, { code: 2000, title: 'Bad request', detail: 'code, callbackUrl' });
      }
      this.callbacks.push(registration);
      return json(res, 200, { ...registration, apiKey: undefined });
    }
    if (method === 'POST' && path === '/api/eWallet/v4/qrcode') {
      const request = JSON.parse(body) as {
        amount?: { unit?: string; value?: number };
        code?: string;
        name?: string;
        validity?: number;
        callbackSuccessUrl?: string;
        callbackCancelUrl?: string;
        metadata?: Record<string, string>;
      };
      const problems = [
        request.amount?.unit === 'XOF' && Number.isInteger(request.amount.value) ? null : 'amount',
        request.code === this.merchantCode ? null : 'code',
        request.name ? null : 'name',
        Number.isInteger(request.validity) ? null : 'validity',
        request.callbackSuccessUrl && request.callbackCancelUrl ? null : 'callbacks',
        request.metadata?.reference ? null : 'metadata',
      ].filter(Boolean);
      if (problems.length > 0) return json(res, 400, { code: 2000, title: 'Bad request', detail: problems.join(', ') });
      const reference = request.metadata!.reference!;
      const qrId = `QR${randomBytes(6).toString('hex')}`;
      this.qrs.set(reference, { reference, body: request, transactions: [] });
      const link = `https://sugu.orange-sonatel.com/mp/${qrId}`;
      return json(res, 200, {
        deepLink: `https://orange-money-prod-flowlinks.web.app/om/${qrId}`,
        deepLinks: {
          MAXIT: `https://sugu.orange-sonatel.com/mp/${qrId}`,
          OM: `https://orange-money-prod-flowlinks.web.app/om/${qrId}`,
        },
        qrCode: PNG_1x1,
        validity: request.validity,
        metadata: request.metadata,
        shortLink: link,
        qrId,
      });
    }
    if (method === 'GET' && path === '/api/eWallet/v1/transactions') {
      const reference = url.searchParams.get('reference') ?? '';
      return json(res, 200, this.qrs.get(reference)?.transactions ?? []);
    }
    return json(res, 404, { code: 404, title: 'Not found' });
  }

  /**
   * The customer scans and pays: the transaction takes `outcome` (ACCEPTED is Sonatel's transient state before the
   * money moves) and the callback goes to `callbackUrl` as Sonatel sends it: `Authorization: Basic <apiKey>`, an
   * idempotency key, and `X-Sonatel-Signature` when signing is on. `amount: null` leaves the amount out.
   */
  async pay(
    reference: string,
    callbackUrl: string,
    outcome: 'SUCCESS' | 'FAILED' | 'ACCEPTED' | 'PRE_INITIATED' | 'REFUNDED' = 'SUCCESS',
    options: { amount?: null; auth?: 'basic' | 'x-api-key' | 'forged' } = {},
  ): Promise<number> {
    const qr = this.qrs.get(reference);
    if (!qr) throw new Error(`no QR code for ${reference}`);
    const transaction = {
      ...(options.amount === null ? {} : { amount: qr.body.amount }),
      partner: { idType: 'CODE', id: this.merchantCode },
      customer: { idType: 'MSISDN', id: '771234567' },
      reference: `OM-${randomBytes(4).toString('hex')}`,
      type: 'MERCHANT_PAYMENT',
      channel: 'API',
      transactionId: `MP${randomBytes(7).toString('hex').toUpperCase()}`,
      paymentMethod: 'QRCODE',
      createdAt: new Date().toISOString(),
      status: outcome,
      metadata: qr.body.metadata,
    };
    qr.transactions.push(transaction);
    const raw = JSON.stringify(transaction);
    const auth = options.auth ?? 'basic';
    const key = auth === 'forged' ? 'not-the-key-not-the-key' : this.callbackApiKey;
    const response = await fetch(callbackUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(auth === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Basic ${key}` }),
        'x-sonatel-idempotency-key': randomBytes(8).toString('hex'),
        ...(this.hmacSecret
          ? { 'x-sonatel-signature': createHmac('sha256', this.hmacSecret).update(raw).digest('hex') }
          : {}),
      },
      body: raw,
    });
    await response.arrayBuffer();
    return response.status;
  }
}

/** PayPal REST pointed at this fake: the server's `PAYPAL_*` variables. */
export function paypalEnv(paypal: FakePayPal): Record<string, string> {
  return {
    PAYPAL_CLIENT_ID: paypal.clientId,
    PAYPAL_CLIENT_SECRET: paypal.clientSecret,
    PAYPAL_API_BASE: paypal.url,
    PAYPAL_WEBHOOK_ID: paypal.webhookId,
  };
}

/** Orange Money REST pointed at this fake: the server's `ORANGE_MONEY_*` variables (its HMAC secret when set). */
export function orangeMoneyEnv(om: FakeOrangeMoney): Record<string, string> {
  return {
    ORANGE_MONEY_CLIENT_ID: om.clientId,
    ORANGE_MONEY_CLIENT_SECRET: om.clientSecret,
    ORANGE_MONEY_API_BASE: om.url,
    ORANGE_MONEY_MERCHANT_CODE: om.merchantCode,
    ORANGE_MONEY_CALLBACK_API_KEY: om.callbackApiKey,
    ...(om.hmacSecret ? { ORANGE_MONEY_CALLBACK_HMAC_SECRET: om.hmacSecret } : {}),
  };
}
