import type {
  BillingCycle,
  BillingService,
  Currency,
  PackService,
  PaymentKind,
  PaymentProvider,
  PaymentStatus,
} from '@kora/contracts';
import type { DomainEvent } from '@kora/kernel';

/** The services, currencies, cycles, providers and statuses the API speaks are declared in @kora/contracts. */
export {
  BILLING_SERVICES,
  type BillingCycle,
  type BillingService,
  CURRENCIES,
  type Currency,
  PACK_SERVICES,
  type PackService,
  PAYMENT_PROVIDERS as PROVIDERS,
  type PaymentKind,
  type PaymentProvider,
  type PaymentStatus,
} from '@kora/contracts';

/**
 * Money is an integer in the currency's minor unit (cents for USD and EUR; XOF has none), so sums are exact. It is
 * formatted as a decimal only at the HTTP edge.
 */
export interface Money {
  amount: number;
  currency: Currency;
}

// ---------------------------------------------------------------- credits-{userId}

/** A pack bought (granted by its captured payment, exactly once): its credits are usable from `startDate` to `endDate`. */
export type PackPurchased = DomainEvent<
  'PackPurchased',
  {
    /** The pack's id: the payment that bought it. */
    packId: string;
    paymentId: string;
    planId: string;
    planName: string;
    service: PackService;
    billingCycle: BillingCycle;
    credits: number;
    startDate: string;
    endDate: string;
    /** The price it was sold at (as recorded on the payment). */
    price: Money;
    /** The service's usable credits after this event. */
    balance: number;
  }
>;

/** One credit spent on unlocking one result (a track, or a mix session for AI_MIXING). */
export type CreditSpent = DomainEvent<
  'CreditSpent',
  {
    spendId: string;
    packId: string;
    service: BillingService;
    /** The track (or mix session) it unlocks. */
    trackId: string;
    trackName: string;
    trackDuration: number;
    credits: number;
    /** The service's usable credits after this event (never below zero). */
    balance: number;
  }
>;

/** The renewal offer is stopped; the credits stay usable until each pack's end date. */
export type PackRenewalCancelled = DomainEvent<'PackRenewalCancelled', { packIds: string[] }>;

/** Credits a pack still had when its end date passed. */
export type CreditsExpired = DomainEvent<
  'CreditsExpired',
  { packId: string; service: PackService; credits: number; balance: number }
>;

/** Credits taken back (the pack's payment was refunded): only those not yet spent. */
export type CreditsRevoked = DomainEvent<
  'CreditsRevoked',
  { packId: string; paymentId: string; service: PackService; credits: number; balance: number }
>;

export type CreditEvent = PackPurchased | CreditSpent | PackRenewalCancelled | CreditsExpired | CreditsRevoked;

export const CREDIT_EVENT_TYPES = [
  'PackPurchased',
  'CreditSpent',
  'PackRenewalCancelled',
  'CreditsExpired',
  'CreditsRevoked',
] as const satisfies readonly CreditEvent['type'][];

// ---------------------------------------------------------------- payment-{paymentId}

/** A purchase priced by the server from the catalogue and opened at the provider (nothing is paid yet). */
export type PaymentIntentCreated = DomainEvent<
  'PaymentIntentCreated',
  {
    paymentId: string;
    ownerId: string;
    provider: PaymentProvider;
    /** The provider's id for it: PayPal's order id, Orange Money's QR id. */
    providerRef: string;
    kind: PaymentKind;
    planId: string;
    planName: string;
    service: BillingService;
    /** The track or mix session a TRACK payment unlocks. */
    trackId: string | null;
    billingCycle: BillingCycle | null;
    /** Credits a PACK payment grants. */
    credits: number;
    /** The price it is sold at, from the catalogue version below. */
    price: Money;
    catalogueVersion: string;
    /**
     * When the provider stops accepting it (Orange Money's QR validity, a PayPal order's approval window), or null
     * (PayPal payments created before the window was recorded).
     */
    expiresAt: string | null;
    /** Through the provider's real API or the built-in sandbox (absent before it was recorded). */
    mode?: 'live' | 'sandbox';
  }
>;

/** The provider took the money. Recorded once, whoever reports it first (capture call, callback, reconciler). */
export type PaymentCaptured = DomainEvent<
  'PaymentCaptured',
  {
    captureId: string;
    amount: Money;
    /**
     * Who reported it: `capture` (our capture call), `callback` (a verified provider callback), `reconciler`,
     * `status`; `operator` when an operator granted a payment anomaly (its amount may differ from the price then).
     */
    source: CaptureSource | 'operator';
  }
>;

export type CaptureSource = 'capture' | 'callback' | 'reconciler' | 'status';

/**
 * Why money the provider reports is not granted: less or more than the price, another currency, no amount at all
 * (fail closed), another order than the intent's, a payment for a code or order already cancelled or expired, a
 * second payment for a payment already paid.
 */
export const ANOMALY_KINDS = [
  'UNDERPAID',
  'OVERPAID',
  'WRONG_CURRENCY',
  'AMOUNT_MISSING',
  'UNKNOWN_ORDER',
  'PAID_AFTER_CLOSE',
  'PAID_TWICE',
] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/**
 * The provider reports money that does not match what was sold: recorded (never lost), nothing granted, operators
 * told; an operator resolves it (`npm run billing -- anomaly ...`: grant it, or refund it at the provider).
 */
export type PaymentAnomalyDetected = DomainEvent<
  'PaymentAnomalyDetected',
  {
    kind: AnomalyKind;
    /** The provider's id for the money (its capture or transaction id): one anomaly per capture. */
    captureId: string;
    /** What the provider reported (null: no amount). */
    reported: Money | null;
    /** The price recorded on the intent. */
    expected: Money;
    /** The order (or QR code) the provider named, when it named one. */
    providerRef: string | null;
    source: CaptureSource;
    /** The payment's status when the money arrived. */
    statusBefore: PaymentStatus;
  }
>;

/** An operator's decision on an anomaly: granted (a `PaymentCaptured` from `operator` follows) or refunded. */
export type PaymentAnomalyResolved = DomainEvent<
  'PaymentAnomalyResolved',
  { captureId: string; resolution: 'granted' | 'refunded'; note: string; refundId: string | null }
>;

export type PaymentFailed = DomainEvent<'PaymentFailed', { code: string; message: string }>;
export type PaymentCancelled = DomainEvent<'PaymentCancelled', { by: 'user' | 'provider' }>;
export type PaymentExpired = DomainEvent<'PaymentExpired', Record<string, never>>;
/**
 * Money given back: a refund (by an operator's command or reported by the provider) or, with `reversal`, a
 * chargeback the buyer's bank made. `amount` is what went back (a partial refund is less than the price).
 */
export type PaymentRefunded = DomainEvent<
  'PaymentRefunded',
  { amount: Money; reason: string; refundId: string; source?: 'operator' | 'provider'; reversal?: boolean }
>;

export type PaymentEvent =
  | PaymentIntentCreated
  | PaymentCaptured
  | PaymentFailed
  | PaymentCancelled
  | PaymentExpired
  | PaymentRefunded
  | PaymentAnomalyDetected
  | PaymentAnomalyResolved;

export const PAYMENT_EVENT_TYPES = [
  'PaymentIntentCreated',
  'PaymentCaptured',
  'PaymentFailed',
  'PaymentCancelled',
  'PaymentExpired',
  'PaymentRefunded',
  'PaymentAnomalyDetected',
  'PaymentAnomalyResolved',
] as const satisfies readonly PaymentEvent['type'][];
