import type { Plan } from '@kora/contracts';
import {
  BILLING_SERVICES,
  type BillingCycle,
  type BillingService,
  CURRENCIES,
  type Currency,
  type Money,
  PACK_SERVICES,
  type PackService,
} from '../contracts/events';

/** The name the spec gives the single-track plan (it cannot be bought as a pack). */
export const PAY_PER_TRACK = 'Pay Per Track';

export type Prices = Record<Currency, number>;

/** The interface languages. */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * A plan's selling points in each interface language; a plain list (an older catalogue file) serves both.
 */
export type Features = Record<Language, string[]> | string[];

/** The features in each language (a plain list is the same in both). */
export function featuresByLanguage(features: Features): Record<Language, string[]> {
  return Array.isArray(features) ? { en: features, fr: features } : features;
}

/** The catalogue file (see docs/operations.md, "Catalogue"): prices in minor units, set per currency by hand. */
export interface Catalogue {
  version: string;
  yearlyDiscountPercent: number;
  payPerTrack: Array<{ id: string; serviceType: BillingService; prices: Prices; features: Features }>;
  packs: Array<{
    id: string;
    name: string;
    serviceType: PackService;
    credits: number;
    monthly: Prices;
    /** Set it to override 12 x monthly minus the discount (rounded to the cent, or to 100 XOF). */
    yearly?: Prices;
    features: Features;
    recommended: boolean;
    icon: 'crown' | 'rocket' | 'infinite';
    /** Its buyers' header says "Unlimited previews" (the plan promises it among its features); false when absent. */
    unlimitedPreview?: boolean;
  }>;
}

export type PackDefinition = Catalogue['packs'][number];
export type PayPerTrackDefinition = Catalogue['payPerTrack'][number];

/** Checks a catalogue once, when it is loaded; returns the problems found (none: it is usable). */
export function catalogueProblems(value: unknown): string[] {
  const problems: string[] = [];
  const c = value as Partial<Catalogue> | null;
  if (!c || typeof c !== 'object') return ['the catalogue must be a JSON object'];
  if (typeof c.version !== 'string' || !c.version) problems.push('version: a non-empty string');
  if (typeof c.yearlyDiscountPercent !== 'number' || c.yearlyDiscountPercent < 0 || c.yearlyDiscountPercent >= 100)
    problems.push('yearlyDiscountPercent: a number from 0 to 99');
  const ids = new Set<string>();
  const features = (where: string, f: unknown): void => {
    const texts = (list: unknown) => Array.isArray(list) && list.every((text) => typeof text === 'string' && text);
    if (
      Array.isArray(f) ? !texts(f) : !LANGUAGES.every((language) => texts((f as Record<string, unknown>)?.[language]))
    )
      problems.push(`${where}: a list of texts, or { "en": [...], "fr": [...] }`);
  };
  const prices = (where: string, p: unknown): void => {
    for (const currency of CURRENCIES) {
      const amount = (p as Record<string, unknown> | undefined)?.[currency];
      if (!Number.isInteger(amount) || (amount as number) <= 0)
        problems.push(`${where}.${currency}: a positive integer in minor units`);
    }
  };
  for (const [i, plan] of (Array.isArray(c.payPerTrack) ? c.payPerTrack : []).entries()) {
    if (ids.has(plan.id)) problems.push(`payPerTrack[${i}].id: duplicate ${plan.id}`);
    ids.add(plan.id);
    if (!BILLING_SERVICES.includes(plan.serviceType)) problems.push(`payPerTrack[${i}].serviceType: unknown`);
    prices(`payPerTrack[${i}].prices`, plan.prices);
    features(`payPerTrack[${i}].features`, plan.features);
  }
  if (!Array.isArray(c.payPerTrack)) problems.push('payPerTrack: a list');
  for (const service of BILLING_SERVICES) {
    if (Array.isArray(c.payPerTrack) && c.payPerTrack.filter((p) => p.serviceType === service).length !== 1)
      problems.push(`payPerTrack: exactly one price for ${service}`);
  }
  if (!Array.isArray(c.packs)) problems.push('packs: a list');
  for (const [i, pack] of (Array.isArray(c.packs) ? c.packs : []).entries()) {
    if (typeof pack.id !== 'string' || ids.has(pack.id)) problems.push(`packs[${i}].id: missing or duplicate`);
    ids.add(pack.id);
    if (typeof pack.name !== 'string' || !pack.name || pack.name === PAY_PER_TRACK)
      problems.push(`packs[${i}].name: a name other than ${PAY_PER_TRACK}`);
    if (!PACK_SERVICES.includes(pack.serviceType)) problems.push(`packs[${i}].serviceType: unknown`);
    if (!Number.isInteger(pack.credits) || pack.credits <= 0) problems.push(`packs[${i}].credits: a positive integer`);
    prices(`packs[${i}].monthly`, pack.monthly);
    if (pack.yearly !== undefined) prices(`packs[${i}].yearly`, pack.yearly);
    features(`packs[${i}].features`, pack.features);
    if (!['crown', 'rocket', 'infinite'].includes(pack.icon))
      problems.push(`packs[${i}].icon: crown, rocket or infinite`);
    if (pack.unlimitedPreview !== undefined && typeof pack.unlimitedPreview !== 'boolean')
      problems.push(`packs[${i}].unlimitedPreview: true or false`);
  }
  return problems;
}

/** XOF has no minor unit; USD and EUR have cents. */
export const minorDigits = (currency: Currency): number => (currency === 'XOF' ? 0 : 2);

/** Minor units to the decimal the API shows (499 USD cents is 4.99; 3000 XOF is 3000). */
export const toMajor = (amount: number, currency: Currency): number => amount / 10 ** minorDigits(currency);

/** A decimal amount from a client to minor units, or null when it is not a valid amount in that currency. */
export function toMinor(value: unknown, currency: Currency): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) return null;
  const minor = Math.round(number * 10 ** minorDigits(currency));
  return Math.abs(minor - number * 10 ** minorDigits(currency)) < 1e-6 ? minor : null;
}

/** 12 x monthly minus the discount, rounded half up to the cent (USD, EUR) or to 100 XOF. */
export function yearlyPrices(pack: PackDefinition, discountPercent: number): Prices {
  if (pack.yearly) return pack.yearly;
  const out = {} as Prices;
  for (const currency of CURRENCIES) {
    const exact = (pack.monthly[currency] * 12 * (100 - discountPercent)) / 100;
    out[currency] = currency === 'XOF' ? Math.round(exact / 100) * 100 : Math.round(exact);
  }
  return out;
}

export function packPrice(catalogue: Catalogue, pack: PackDefinition, cycle: BillingCycle, currency: Currency): Money {
  const prices = cycle === 'YEARLY' ? yearlyPrices(pack, catalogue.yearlyDiscountPercent) : pack.monthly;
  return { amount: prices[currency], currency };
}

/** Credits a pack grants for its cycle: a year holds twelve months of them. */
export const packCredits = (pack: PackDefinition, cycle: BillingCycle): number =>
  cycle === 'YEARLY' ? pack.credits * 12 : pack.credits;

/** The end of a cycle that starts at `start`: one calendar month or year later (UTC). */
export function cycleEnd(start: Date, cycle: BillingCycle): Date {
  const end = new Date(start);
  if (cycle === 'YEARLY') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

/** `features` (English) and `i18n` (each language) of a plan view. */
function featureFields(features: Features): Pick<Plan, 'features' | 'i18n'> {
  const byLanguage = featuresByLanguage(features);
  return {
    features: byLanguage.en,
    i18n: { en: { features: byLanguage.en }, fr: { features: byLanguage.fr } },
  };
}

const majors = (prices: Prices) => ({
  priceUSD: toMajor(prices.USD, 'USD'),
  priceEUR: toMajor(prices.EUR, 'EUR'),
  priceXOF: toMajor(prices.XOF, 'XOF'),
});

export function packViews(catalogue: Catalogue, cycle: BillingCycle, service?: PackService): Plan[] {
  return catalogue.packs
    .filter((pack) => !service || pack.serviceType === service)
    .map((pack) => {
      const prices = cycle === 'YEARLY' ? yearlyPrices(pack, catalogue.yearlyDiscountPercent) : pack.monthly;
      const credits = packCredits(pack, cycle);
      return {
        id: pack.id,
        name: pack.name,
        price: toMajor(prices.USD, 'USD'),
        ...majors(prices),
        currency: 'USD' as const,
        billingCycle: cycle,
        ...featureFields(pack.features),
        masteringLimit: pack.serviceType === 'AI_MASTERING' ? credits : 0,
        audioEnhancementLimit: pack.serviceType === 'AUDIO_ENHANCEMENT' ? credits : 0,
        stemSeparationLimit: pack.serviceType === 'STEM_SEPARATION' ? credits : 0,
        serviceType: pack.serviceType,
        recommended: pack.recommended,
        icon: pack.icon,
        credits,
        yearly: {
          ...majors(yearlyPrices(pack, catalogue.yearlyDiscountPercent)),
          credits: packCredits(pack, 'YEARLY'),
        },
        yearlyDiscountPercent: catalogue.yearlyDiscountPercent,
        purchasable: true,
      };
    })
    .sort((a, b) => a.priceXOF - b.priceXOF || a.id.localeCompare(b.id));
}

export function payPerTrackViews(catalogue: Catalogue, service?: BillingService): Plan[] {
  return catalogue.payPerTrack
    .filter((plan) => !service || plan.serviceType === service)
    .map((plan) => ({
      id: plan.id,
      name: PAY_PER_TRACK,
      price: toMajor(plan.prices.USD, 'USD'),
      ...majors(plan.prices),
      currency: 'USD' as const,
      billingCycle: 'MONTHLY' as const,
      ...featureFields(plan.features),
      masteringLimit: 0,
      audioEnhancementLimit: 0,
      stemSeparationLimit: 0,
      serviceType: plan.serviceType,
      recommended: false,
      icon: 'rocket' as const,
      credits: 0,
      yearly: null,
      yearlyDiscountPercent: 0,
      purchasable: false,
    }))
    .sort((a, b) => a.priceXOF - b.priceXOF || a.id.localeCompare(b.id));
}
