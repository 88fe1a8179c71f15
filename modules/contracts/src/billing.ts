/** Every service a result can be paid for (AI mixing unlocks mix sessions, the others tracks). */
export const BILLING_SERVICES = ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT', 'AI_MIXING'] as const;
export type BillingService = (typeof BILLING_SERVICES)[number];

/** The services packs exist for. */
export const PACK_SERVICES = ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT'] as const;
export type PackService = (typeof PACK_SERVICES)[number];

export const CURRENCIES = ['USD', 'EUR', 'XOF'] as const;
export type Currency = (typeof CURRENCIES)[number];

export type BillingCycle = 'MONTHLY' | 'YEARLY';

/**
 * A plan as the server sends it (`GET /api/plans`, `GET /api/plans/payngo`; the spec's Plan), prices as decimals
 * (USD by default, the plan display's currency).
 */
export interface Plan {
  id: string;
  name: string;
  price: number;
  priceUSD: number;
  priceEUR: number;
  priceXOF: number;
  currency: Currency;
  billingCycle: BillingCycle;
  /** In English (the spec's Plan); `i18n` has them in each interface language. */
  features: string[];
  i18n: Record<'en' | 'fr', { features: string[] }>;
  masteringLimit: number;
  audioEnhancementLimit: number;
  stemSeparationLimit: number;
  serviceType: BillingService;
  recommended: boolean;
  icon: 'crown' | 'rocket' | 'infinite';
  credits: number;
  /** The same plan billed yearly (12 x monthly minus the discount); null for Pay Per Track. */
  yearly: { priceUSD: number; priceEUR: number; priceXOF: number; credits: number } | null;
  yearlyDiscountPercent: number;
  purchasable: boolean;
}

/** `GET /api/plans`, `GET /api/plans/payngo`: the plans and the catalogue's version. */
export interface PlansPage {
  plans: Plan[];
  catalogueVersion: string;
}

/**
 * `GET /api/payments/config`: what the client needs to pick a checkout: `live` is the provider's real API (PayPal's JS
 * SDK with `clientId`), `sandbox` the built-in one (an approval page in a popup; only when no provider is live), `off`
 * not offered.
 */
export interface PaymentsConfig {
  paypal: { mode: 'sandbox' | 'off' } | { mode: 'live'; clientId: string };
  orangeMoney: { mode: 'sandbox' | 'live' | 'off' };
}

export const PAYMENT_PROVIDERS = ['PAYPAL', 'ORANGE_MONEY'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** What a payment buys: one track's (or mix's) result, or a pack of credits. */
export type PaymentKind = 'TRACK' | 'PACK';

/** A payment's status: its history's `detailedStatus`, the status answer's `paymentStatus`. */
export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'refunded';

/**
 * `POST /api/payments/createIntent` (a track's result, a mix session's) and `POST /api/subscriptions/subscribe` (a
 * pack): what the client asks for. The price is the server's, from the catalogue.
 */
export interface IntentRequest {
  provider: PaymentProvider;
  currency: Currency;
  paymentType: PaymentKind;
  planId?: string;
  billingCycle?: BillingCycle;
  trackId?: string;
  service?: BillingService;
}

interface IntentBase {
  success: true;
  paymentId: string;
  /** As a decimal in `currency` (XOF has no minor unit). */
  amount: number;
  currency: Currency;
  status: 'pending';
}

/** A PayPal order to approve: in PayPal's window (`approveUrl`), or the built-in sandbox's when it is null. */
export interface PayPalIntent extends IntentBase {
  provider: 'PAYPAL';
  orderId: string;
  approveUrl: string | null;
}

/** An Orange Money QR code to scan (or a deep link into the Orange Money and Max it apps), valid `validity` s. */
export interface OrangeMoneyIntent extends IntentBase {
  provider: 'ORANGE_MONEY';
  validity: number;
  merchantCode: string;
  /** A PNG, base64. */
  qrCode: string;
  deepLinks: { OM: string; MAXIT: string };
}

/** The answer to an intent request: the payment opened at its provider. */
export type Intent = PayPalIntent | OrangeMoneyIntent;

/** `POST /api/payments/status`: `status` in the spec's words, `paymentStatus` in the history's. */
export interface PaymentStatusAnswer {
  status: 'PENDING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'EXPIRED' | 'REFUNDED';
  paymentStatus: PaymentStatus;
  paymentId: string;
  /** Why it failed, when the provider said (`INSUFFICIENT_BALANCE`, `INSTRUMENT_DECLINED`...). */
  reason?: string;
}

/** `POST /api/payments/paypal/capture/{orderId}`. */
export interface CaptureAnswer {
  success: boolean;
  message: string;
  status: PaymentStatus;
  paymentId: string;
}

/** `POST /api/payments/paypal/{orderId}/cancel`, `POST /api/payments/orange-money/{paymentId}/cancel`. */
export interface CancelAnswer {
  success: boolean;
  status: PaymentStatus;
}

/** `POST /api/audio/track/{id}/master`: a credit spent or a captured payment used to unlock a result. */
export interface UnlockAnswer {
  success: true;
  trackId: string;
  status: string;
  unlocked: boolean;
  alreadyUnlocked: boolean;
  creditsUsed: 0 | 1;
  /** The service's credits left after this spend; only when a credit was spent now. */
  creditsRemaining?: number;
}

/** One service's credits over its active packs (`services` of the current subscription). */
export interface PackStatus {
  total: number;
  used: number;
  remaining: number;
  startDate: string | null;
  endDate: string | null;
}

/** One bought pack (`activePacks` of the current subscription). */
export interface ActivePack {
  id: string;
  planId: string;
  planName: string;
  serviceType: PackService;
  billingCycle: BillingCycle;
  limit: number;
  used: number;
  remaining: number;
  startDate: string;
  endDate: string;
  /** Whether it renews by itself; a pack paid by one order (PayPal, Orange Money) does not. */
  renews: boolean;
  /** A pack that renews, told not to. */
  renewalCancelled: boolean;
}

/** The packs active now and their credits (`subscription` of `GET /api/subscriptions/current`). */
export interface CurrentSubscription {
  /** The latest pack's plan. */
  plan: { id: string; name: string; serviceType: PackService; billingCycle: BillingCycle; unlimitedPreview: boolean };
  /** Cancelled once every pack that renews was told not to. */
  status: 'active' | 'cancelled';
  totalCredits: number;
  creditsUsed: number;
  remainingCredits: number;
  /** Per service: the credits left (AI mixing has no packs: 0). */
  remaining: Record<BillingService, number>;
  startDate: string;
  endDate: string;
  services: Record<PackService, PackStatus>;
  activePacks: ActivePack[];
}

/** `GET /api/subscriptions/current`; a 404 `BILLING.NO_SUBSCRIPTION` without an active pack. */
/** `POST /api/subscriptions/cancel`: the renewal stopped; the subscription as it now stands (null: no pack active). */
export interface CancelRenewalAnswer {
  success: true;
  subscription: CurrentSubscription | null;
}

export interface CurrentSubscriptionAnswer {
  success: true;
  subscription: CurrentSubscription;
  masteringCounts: { total: number; used: number; remaining: number };
}

/** A credit spent (`history` of `GET /api/subscriptions/usage-history`). */
export interface UsageEntry {
  id: string;
  date: string;
  trackId: string;
  trackName: string;
  serviceType: BillingService;
  /** Seconds. */
  trackDuration: number;
  creditsUsed: number;
}

export interface UsageHistoryAnswer {
  success: true;
  history: UsageEntry[];
}

/** A payment as the history shows it (`payments` of `GET /api/payments/history`), the amount as a decimal. */
export interface PaymentRecord {
  id: string;
  date: string;
  amount: number;
  currency: Currency;
  /** Kora's two: `paypal` and `mobile money` (Orange Money); the others are the spec's, for the history's words. */
  payment_method: 'paypal' | 'mobile money' | 'applepay' | 'googlepay' | 'card' | 'wave' | 'stripe';
  provider: PaymentProvider;
  planName: string;
  planId: string;
  serviceType: BillingService;
  type: 'subscription' | 'single_track';
  trackId: string | null;
  billingCycle: BillingCycle | null;
  credits: number;
  /** pending, paid, failed or refunded: a cancelled or expired payment took no money and is counted as failed... */
  status: Exclude<PaymentStatus, 'cancelled' | 'expired'>;
  /** ...and named here. */
  detailedStatus: PaymentStatus;
  failure: { code: string; message: string } | null;
  updatedAt: string;
}

export interface PaymentHistoryAnswer {
  success: true;
  payments: PaymentRecord[];
  pagination: { total: number; page: number; limit: number; pages: number };
}
