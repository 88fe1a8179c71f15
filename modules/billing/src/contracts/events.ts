import type { DomainEvent } from '@kora/kernel';

/** Every service a result can be paid for (AI mixing unlocks mix sessions, the others tracks). */
export const BILLING_SERVICES = ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT', 'AI_MIXING'] as const;
export type BillingService = (typeof BILLING_SERVICES)[number];

/** The services packs exist for. */
export const PACK_SERVICES = ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT'] as const;
export type PackService = (typeof PACK_SERVICES)[number];

export const CURRENCIES = ['USD', 'EUR', 'XOF'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const PROVIDERS = ['PAYPAL', 'ORANGE_MONEY'] as const;
export type PaymentProvider = (typeof PROVIDERS)[number];

export type BillingCycle = 'MONTHLY' | 'YEARLY';

/** What a payment buys: one track's (or mix's) result, or a pack of credits. */
export type PaymentKind = 'TRACK' | 'PACK';

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
  }
>;

/** The provider took the money. Recorded once, whoever reports it first (capture call, callback, reconciler). */
export type PaymentCaptured = DomainEvent<
  'PaymentCaptured',
  {
    captureId: string;
    amount: Money;
    /** Who reported it: `capture` (our capture call), `callback` (a verified provider callback), `reconciler`, `status`. */
    source: 'capture' | 'callback' | 'reconciler' | 'status';
  }
>;

export type PaymentFailed = DomainEvent<'PaymentFailed', { code: string; message: string }>;
export type PaymentCancelled = DomainEvent<'PaymentCancelled', { by: 'user' | 'provider' }>;
export type PaymentExpired = DomainEvent<'PaymentExpired', Record<string, never>>;
export type PaymentRefunded = DomainEvent<'PaymentRefunded', { amount: Money; reason: string; refundId: string }>;

export type PaymentEvent =
  PaymentIntentCreated | PaymentCaptured | PaymentFailed | PaymentCancelled | PaymentExpired | PaymentRefunded;

export const PAYMENT_EVENT_TYPES = [
  'PaymentIntentCreated',
  'PaymentCaptured',
  'PaymentFailed',
  'PaymentCancelled',
  'PaymentExpired',
  'PaymentRefunded',
] as const satisfies readonly PaymentEvent['type'][];

/** A payment's status as the history shows it. */
export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'refunded';
