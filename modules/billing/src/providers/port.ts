/**
 * The payment providers' port: what billing needs from PayPal (Orders v2) and Orange Money (web payment / QR code),
 * in those APIs' own shapes, so the REST adapters return what the providers answer and the sandbox answers the same.
 * Adapters: the built-in sandbox (embedded default), PayPal REST (`PAYPAL_*`), Orange Money REST (`ORANGE_MONEY_*`).
 */

/** PayPal Orders v2 `amount`: a decimal string (`"4.99"`). */
export interface PayPalAmount {
  currency_code: string;
  value: string;
}

export interface PayPalCapture {
  id: string;
  status: 'COMPLETED' | 'DECLINED' | 'PENDING' | 'FAILED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
  amount: PayPalAmount;
  custom_id?: string;
}

/** An order as `GET /v2/checkout/orders/{id}` answers it (the fields billing reads). */
export interface PayPalOrder {
  id: string;
  status: 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
  intent: 'CAPTURE';
  purchase_units: Array<{
    reference_id?: string;
    custom_id?: string;
    description?: string;
    amount: PayPalAmount;
    payments?: { captures?: PayPalCapture[] };
  }>;
  links: Array<{ href: string; rel: string; method: string }>;
  create_time?: string;
}

/** A webhook event after verification (`CHECKOUT.ORDER.APPROVED` carries an order, `PAYMENT.CAPTURE.*` a capture). */
export interface PayPalWebhookEvent {
  id: string;
  event_type: string;
  resource_type?: string;
  resource: Record<string, unknown>;
  create_time?: string;
}

/** A provider refusal with the provider's own code (`INSTRUMENT_DECLINED`, `ORDER_NOT_APPROVED`, ...). */
export class ProviderRefusal extends Error {
  constructor(
    readonly issue: string,
    message: string,
    /** The customer's instrument or balance refused it: the payment has failed for good. */
    readonly final: boolean,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}

/** The provider could not be reached, timed out or answered 5xx: nothing can be concluded. */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}

export abstract class PayPalGateway {
  /** `POST /v2/checkout/orders`, intent CAPTURE; `requestId` is sent as `PayPal-Request-Id` (idempotent create). */
  abstract createOrder(input: {
    requestId: string;
    customId: string;
    description: string;
    amount: PayPalAmount;
    returnUrl: string;
    cancelUrl: string;
  }): Promise<PayPalOrder>;
  /** `POST /v2/checkout/orders/{id}/capture` with `PayPal-Request-Id` (a repeat answers the first capture). */
  abstract captureOrder(orderId: string, requestId: string): Promise<PayPalOrder>;
  /** `GET /v2/checkout/orders/{id}`. */
  abstract getOrder(orderId: string): Promise<PayPalOrder>;
  /**
   * Verifies a webhook delivery (`/v1/notifications/verify-webhook-signature`) on the exact bytes PayPal sent
   * (`raw`: PayPal checks a checksum of them, which a re-serialised body need not match); null when not genuine.
   */
  abstract verifyWebhook(headers: Record<string, string | undefined>, raw: string): Promise<PayPalWebhookEvent | null>;
}

/** Orange Money `amount`: `{ unit: "XOF", value }` (XOF has no minor unit). */
export interface OrangeMoneyAmount {
  unit: 'XOF';
  value: number;
}

/** The answer of `POST /api/eWallet/v4/qrcode`. */
export interface OrangeMoneyQrCode {
  qrId: string;
  /** Base64 PNG. */
  qrCode: string;
  deepLink: string;
  deepLinks: { OM: string; MAXIT: string };
  shortLink: string;
  /** Seconds the code stays payable. */
  validity: number;
  metadata: Record<string, string>;
}

/** A transaction's state; REFUNDED: the merchant (or Orange Money) gave the money back. */
export type OrangeMoneyStatus = 'INITIATED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'CANCELLED' | 'EXPIRED' | 'REFUNDED';

/** A transaction as the status call and the callback describe it. */
export interface OrangeMoneyTransaction {
  transactionId: string | null;
  reference: string;
  status: OrangeMoneyStatus;
  /** Null when Orange Money reported none (never granted then). */
  amount: OrangeMoneyAmount | null;
  metadata: Record<string, string>;
  /** Why a FAILED transaction was refused, in the provider's code (`INSUFFICIENT_BALANCE`), when it gives one. */
  reason?: string | null;
}

export abstract class OrangeMoneyGateway {
  /** The merchant code shown beside the QR code. */
  abstract readonly merchantCode: string;
  /** `POST /api/eWallet/v4/qrcode`; `reference` (our payment id) comes back in the callback's metadata. */
  abstract createQrCode(input: {
    reference: string;
    amount: OrangeMoneyAmount;
    name: string;
    validity: number;
    callbackSuccessUrl: string;
    callbackCancelUrl: string;
  }): Promise<OrangeMoneyQrCode>;
  /** The transaction paid (or not) for `reference`; INITIATED while nobody paid. */
  abstract getTransaction(reference: string): Promise<OrangeMoneyTransaction>;
  /** Verifies a callback delivery on the bytes as sent (`raw`); null when it is not genuine. */
  abstract verifyCallback(
    headers: Record<string, string | undefined>,
    raw: string,
  ): Promise<OrangeMoneyTransaction | null>;
}

/** A JSON body as text, or null when it is not JSON (a provider's delivery is parsed only after this check). */
export function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
