import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CLOCK, type Clock, ReadStore } from '@kora/kernel';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BILLING_OPTIONS, type BillingOptions } from '../../application/billing-options';
import {
  type OrangeMoneyAmount,
  type OrangeMoneyQrCode,
  type OrangeMoneyStatus,
  type OrangeMoneyTransaction,
  type PayPalAmount,
  type PayPalOrder,
  ProviderRefusal,
  ProviderUnavailable,
} from '../port';
import { qrPng } from './qr-png';

/**
 * What a tester can make the sandbox do: refuse the customer's payment, fail (5xx), answer slowly, deliver every
 * callback twice, stop sending webhooks, or capture and then lose the answer (the window between the provider's
 * capture and our append).
 */
export interface SandboxKnobs {
  decline: boolean;
  fail: boolean;
  delayMs: number;
  duplicateCallbacks: boolean;
  webhooks: boolean;
  loseCaptureResponse: boolean;
  /**
   * The buyer's money comes to this instead of the price (PayPal's decimal, or XOF as an integer string; `""` for no
   * amount at all): to play underpaid, overpaid and amount-less captures by hand. Null: the price.
   */
  payAmount: string | null;
}

export const DEFAULT_KNOBS: SandboxKnobs = {
  decline: false,
  fail: false,
  delayMs: 0,
  duplicateCallbacks: false,
  webhooks: true,
  loseCaptureResponse: false,
  payAmount: null,
};

interface SandboxOrder {
  _id: string;
  requestId: string;
  order: PayPalOrder;
  captureRequestId: string | null;
  declineOnCapture: boolean;
  /** What refunds and reversals have given back of the capture, in cents. */
  refundedCents?: number;
}

/** PayPal's refund resource, or why PayPal would refuse it (its `issue`), or null: no captured order. */
export type SandboxRefund =
  { refund: Record<string, unknown> } | { refused: 'INVALID_PARAMETER_VALUE' | 'REFUND_AMOUNT_EXCEEDED' } | null;

const cents = (value: string): number => Math.round(Number(value) * 100);

interface SandboxQr {
  _id: string;
  qrId: string;
  amount: OrangeMoneyAmount;
  /** What the buyer's wallet sent instead of the price (the `payAmount` knob; null: no amount), when it differs. */
  paid?: OrangeMoneyAmount | null;
  name: string;
  status: OrangeMoneyStatus;
  /** A refusal's reason (the payer's wallet had too little). */
  reason?: string;
  transactionId: string | null;
  expiresAt: string;
  callbackSuccessUrl: string;
  callbackCancelUrl: string;
  metadata: Record<string, string>;
}

const ORDERS = '_sandbox_paypal_orders';
const QR_CODES = '_sandbox_orange_money';
export const SANDBOX_MERCHANT = 'KORA01';

const sign = (secret: Buffer, text: string): string => createHmac('sha256', secret).update(text).digest('base64');

function sameSignature(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The built-in payment sandbox: a PayPal Orders v2 and an Orange Money QR code provider in the app itself, with
 * their states in the read store (they survive a restart and every replica shares them). Its pages and routes are
 * in `SandboxController`; the gateways in `sandbox-gateways.ts` are its API side.
 */
@Injectable()
export class PaymentSandbox implements OnModuleInit {
  knobs: SandboxKnobs = { ...DEFAULT_KNOBS };
  private readonly secret: Buffer;

  constructor(
    private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {
    this.secret = options.sandboxSecret;
  }

  /** Orders are found again by their PayPal-Request-Id: without an index, each new order scanned every earlier one. */
  async onModuleInit(): Promise<void> {
    await this.reads.ensureIndexes(ORDERS, [{ fields: { requestId: 1 } }]);
  }

  get publicUrl(): string {
    return this.options.publicUrl;
  }

  setKnobs(change: Partial<SandboxKnobs>): SandboxKnobs {
    this.knobs = { ...this.knobs, ...change };
    return this.knobs;
  }

  /** Every provider call waits `delayMs` and fails when `fail` is on, as a provider having a bad day. */
  async providerCall(): Promise<void> {
    if (this.knobs.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.knobs.delayMs));
    if (this.knobs.fail) throw new ProviderUnavailable('sandbox: 503 Service Unavailable');
  }

  private get orders() {
    return this.reads.collection<SandboxOrder>(ORDERS);
  }

  private get qrCodes() {
    return this.reads.collection<SandboxQr>(QR_CODES);
  }

  // ------------------------------------------------------------------ PayPal

  async createOrder(input: {
    requestId: string;
    customId: string;
    description: string;
    amount: PayPalAmount;
  }): Promise<PayPalOrder> {
    await this.providerCall();
    const existing = await this.orders.findOne({ requestId: input.requestId });
    if (existing) return existing.order;
    const id = randomBytes(9).toString('hex').toUpperCase().slice(0, 17);
    const order: PayPalOrder = {
      id,
      status: 'CREATED',
      intent: 'CAPTURE',
      purchase_units: [
        { reference_id: 'default', custom_id: input.customId, description: input.description, amount: input.amount },
      ],
      links: [
        { href: `${this.publicUrl}/sandbox/paypal/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
        { href: `${this.publicUrl}/sandbox/paypal/checkout?token=${id}`, rel: 'approve', method: 'GET' },
        { href: `${this.publicUrl}/sandbox/paypal/v2/checkout/orders/${id}/capture`, rel: 'capture', method: 'POST' },
      ],
      create_time: this.clock.now().toISOString(),
    };
    await this.orders.upsert({
      _id: id,
      requestId: input.requestId,
      order,
      captureRequestId: null,
      declineOnCapture: false,
    });
    return order;
  }

  async getOrder(orderId: string): Promise<PayPalOrder> {
    await this.providerCall();
    const stored = await this.orders.findById(orderId);
    if (!stored) throw new ProviderRefusal('RESOURCE_NOT_FOUND', 'The specified resource does not exist.', true);
    return stored.order;
  }

  /** The payer approves (or, with `decline`, approves with an instrument that will be refused at capture). */
  async approveOrder(orderId: string, outcome: 'approve' | 'decline' = 'approve'): Promise<PayPalOrder | null> {
    const stored = await this.orders.findById(orderId);
    if (!stored) return null;
    if (stored.order.status !== 'CREATED') return stored.order;
    const order: PayPalOrder = { ...stored.order, status: 'APPROVED' };
    await this.orders.upsert({ ...stored, order, declineOnCapture: outcome === 'decline' || this.knobs.decline });
    await this.sendPayPalWebhook(
      'CHECKOUT.ORDER.APPROVED',
      'checkout-order',
      order as unknown as Record<string, unknown>,
    );
    return order;
  }

  async captureOrder(orderId: string, requestId: string): Promise<PayPalOrder> {
    await this.providerCall();
    const stored = await this.orders.findById(orderId);
    if (!stored) throw new ProviderRefusal('RESOURCE_NOT_FOUND', 'The specified resource does not exist.', true);
    if (stored.order.status === 'COMPLETED') {
      if (stored.captureRequestId === requestId) return stored.order; // PayPal-Request-Id: the same answer again
      throw new ProviderRefusal('ORDER_ALREADY_CAPTURED', 'Order already captured.', false);
    }
    if (stored.order.status !== 'APPROVED') {
      throw new ProviderRefusal('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.', false);
    }
    if (stored.declineOnCapture || this.knobs.decline) {
      // As at PayPal: the order waits for the buyer to approve it again with another card (the SDK's restart).
      await this.orders.upsert({ ...stored, order: { ...stored.order, status: 'CREATED' }, declineOnCapture: false });
      throw new ProviderRefusal('INSTRUMENT_DECLINED', 'The instrument presented was declined.', true);
    }
    const unit = stored.order.purchase_units[0]!;
    const payAmount = this.knobs.payAmount;
    const capture = {
      id: randomBytes(9).toString('hex').toUpperCase().slice(0, 17),
      status: 'COMPLETED' as const,
      amount: payAmount === null ? unit.amount : { ...unit.amount, value: payAmount },
      ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
    };
    const order: PayPalOrder = {
      ...stored.order,
      status: 'COMPLETED',
      purchase_units: [{ ...unit, payments: { captures: [capture] } }],
    };
    await this.orders.upsert({ ...stored, order, captureRequestId: requestId });
    // PayPal's capture resource names its order in `supplementary_data.related_ids` (webhook payloads do).
    void this.sendPayPalWebhook('PAYMENT.CAPTURE.COMPLETED', 'capture', {
      ...capture,
      supplementary_data: { related_ids: { order_id: order.id } },
    });
    if (this.knobs.loseCaptureResponse) throw new ProviderUnavailable('sandbox: the capture answer was lost');
    return order;
  }

  /**
   * A refund made in PayPal's dashboard, or (`reverse`) a chargeback the buyer's bank made: PayPal's refund resource
   * (its `up` link names the capture) goes out in PAYMENT.CAPTURE.REFUNDED or PAYMENT.CAPTURE.REVERSED. `amount`
   * (a decimal string, as PayPal writes amounts) refunds part of the capture; without it, all that is left of it. As
   * at PayPal, refunds never give back more than the capture (REFUND_AMOUNT_EXCEEDED).
   */
  async refundOrder(orderId: string, outcome: 'refund' | 'reverse', amount?: string): Promise<SandboxRefund> {
    const stored = await this.orders.findById(orderId);
    const capture = stored?.order.purchase_units[0]?.payments?.captures?.[0];
    if (!stored || !capture) return null;
    const refunded = stored.refundedCents ?? 0;
    const left = cents(capture.amount.value) - refunded;
    if (amount !== undefined && (!/^\d{1,7}(\.\d{1,2})?$/.test(amount) || cents(amount) === 0)) {
      return { refused: 'INVALID_PARAMETER_VALUE' };
    }
    const given = amount === undefined ? left : cents(amount);
    if (given <= 0 || given > left) return { refused: 'REFUND_AMOUNT_EXCEEDED' };
    await this.orders.upsert({ ...stored, refundedCents: refunded + given });
    const refund = {
      id: randomBytes(9).toString('hex').toUpperCase().slice(0, 17),
      status: 'COMPLETED',
      amount: { currency_code: capture.amount.currency_code, value: (given / 100).toFixed(2) },
      ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
      create_time: this.clock.now().toISOString(),
      links: [
        { href: `${this.publicUrl}/sandbox/v2/payments/refunds/${capture.id}`, rel: 'self', method: 'GET' },
        { href: `${this.publicUrl}/sandbox/v2/payments/captures/${capture.id}`, rel: 'up', method: 'GET' },
      ],
    };
    await this.sendPayPalWebhook(
      outcome === 'reverse' ? 'PAYMENT.CAPTURE.REVERSED' : 'PAYMENT.CAPTURE.REFUNDED',
      'refund',
      refund,
    );
    return { refund };
  }

  private async sendPayPalWebhook(eventType: string, resourceType: string, resource: Record<string, unknown>) {
    if (!this.knobs.webhooks) return;
    const body = {
      id: `WH-${randomBytes(8).toString('hex').toUpperCase()}`,
      event_version: '1.0',
      create_time: this.clock.now().toISOString(),
      resource_type: resourceType,
      event_type: eventType,
      summary: eventType,
      resource,
    };
    const transmissionId = randomBytes(8).toString('hex');
    const time = this.clock.now().toISOString();
    const json = JSON.stringify(body);
    const headers = {
      'content-type': 'application/json',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-auth-algo': 'HMACSHA256',
      'paypal-transmission-sig': sign(this.secret, `${transmissionId}|${time}|${json}`),
    };
    await this.deliver(`${this.publicUrl}/api/payments/paypal/webhook`, headers, json);
  }

  verifyPayPalWebhook(headers: Record<string, string | undefined>, raw: string): boolean {
    const id = headers['paypal-transmission-id'];
    const time = headers['paypal-transmission-time'];
    if (!id || !time) return false;
    return sameSignature(sign(this.secret, `${id}|${time}|${raw}`), headers['paypal-transmission-sig']);
  }

  // ------------------------------------------------------------------ Orange Money

  async createQrCode(input: {
    reference: string;
    amount: OrangeMoneyAmount;
    name: string;
    validity: number;
    callbackSuccessUrl: string;
    callbackCancelUrl: string;
  }): Promise<OrangeMoneyQrCode> {
    await this.providerCall();
    const link = `${this.publicUrl}/sandbox/orange-money/pay/${encodeURIComponent(input.reference)}`;
    const existing = await this.qrCodes.findById(input.reference);
    const qrId = existing?.qrId ?? `QR${randomBytes(8).toString('hex').toUpperCase()}`;
    const metadata = { reference: input.reference };
    if (!existing) {
      await this.qrCodes.upsert({
        _id: input.reference,
        qrId,
        amount: input.amount,
        name: input.name,
        status: 'INITIATED',
        transactionId: null,
        expiresAt: new Date(this.clock.now().getTime() + input.validity * 1000).toISOString(),
        callbackSuccessUrl: input.callbackSuccessUrl,
        callbackCancelUrl: input.callbackCancelUrl,
        metadata,
      });
    }
    return {
      qrId,
      qrCode: qrPng(link).toString('base64'),
      deepLink: `${link}?app=OM`,
      deepLinks: { OM: `${link}?app=OM`, MAXIT: `${link}?app=MAXIT` },
      shortLink: link,
      validity: input.validity,
      metadata,
    };
  }

  private transaction(qr: SandboxQr): OrangeMoneyTransaction {
    const expired = qr.status === 'INITIATED' && qr.expiresAt <= this.clock.now().toISOString();
    return {
      transactionId: qr.transactionId,
      reference: qr._id,
      status: expired ? 'EXPIRED' : qr.status,
      amount: qr.paid === undefined ? qr.amount : qr.paid,
      metadata: qr.metadata,
      ...(qr.reason ? { reason: qr.reason } : {}),
    };
  }

  async getTransaction(reference: string): Promise<OrangeMoneyTransaction> {
    await this.providerCall();
    const qr = await this.qrCodes.findById(reference);
    if (!qr) throw new ProviderRefusal('NOT_FOUND', 'Unknown reference', true);
    return this.transaction(qr);
  }

  async findQr(reference: string): Promise<(SandboxQr & { transaction: OrangeMoneyTransaction }) | null> {
    const qr = await this.qrCodes.findById(reference);
    return qr ? { ...qr, transaction: this.transaction(qr) } : null;
  }

  /** The customer confirms in the Orange Money (or Max It) app: the payment settles and the signed callback goes out. */
  async payQr(reference: string, outcome: 'pay' | 'decline' = 'pay'): Promise<OrangeMoneyTransaction | null> {
    const qr = await this.qrCodes.findById(reference);
    if (!qr) return null;
    const current = this.transaction(qr);
    if (current.status !== 'INITIATED') return current;
    const declined = outcome === 'decline' || this.knobs.decline;
    const payAmount = this.knobs.payAmount;
    const next: SandboxQr = {
      ...qr,
      status: declined ? 'FAILED' : 'SUCCESS',
      // The sandbox's refusal is the commonest in the field: the wallet's balance is too low.
      ...(declined ? { reason: 'INSUFFICIENT_BALANCE' } : {}),
      transactionId: `MP${randomBytes(7).toString('hex').toUpperCase()}`,
      // What the buyer's wallet sent (the knob), in the callback and in the status answer alike.
      ...(payAmount === null ? {} : { paid: payAmount === '' ? null : { unit: 'XOF', value: Number(payAmount) } }),
    };
    await this.qrCodes.upsert(next);
    const transaction = this.transaction(next);
    const body = JSON.stringify({
      amount: transaction.amount,
      partner: { idType: 'CODE', id: SANDBOX_MERCHANT },
      customer: { idType: 'MSISDN', id: '770000000' },
      reference: next._id,
      type: 'MERCHANT_PAYMENT',
      channel: 'API',
      transactionId: next.transactionId,
      paymentMethod: 'QRCODE',
      createdAt: this.clock.now().toISOString(),
      status: transaction.status,
      ...(transaction.reason ? { reason: transaction.reason } : {}),
      metadata: next.metadata,
    });
    const headers = { 'content-type': 'application/json', 'x-signature': `sha256=${sign(this.secret, body)}` };
    await this.deliver(`${this.publicUrl}/api/payments/orange-money/callback`, headers, body);
    return transaction;
  }

  verifyOrangeMoneyCallback(headers: Record<string, string | undefined>, raw: string): boolean {
    return sameSignature(`sha256=${sign(this.secret, raw)}`, headers['x-signature']);
  }

  /** Sends a callback (twice, at once, with `duplicateCallbacks`); a delivery that fails is dropped, as providers do. */
  private async deliver(url: string, headers: Record<string, string>, body: string): Promise<void> {
    const send = () =>
      fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) }).then(
        (response) => response.arrayBuffer(),
        () => undefined,
      );
    await Promise.all(this.knobs.duplicateCallbacks ? [send(), send()] : [send()]);
  }
}
