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
