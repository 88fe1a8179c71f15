import type { PaymentProvider } from '@kora/contracts';
import type { Currency } from '../../../lib/format';

/** Spec §9: the business constants of payment and unlock. */
export const PAYMENT_LIMITS = {
  /** After a payment or a credit: the track's status every 2 s, at most 60 times. */
  statusPollMs: 2000,
  statusPolls: 60,
  /** Then the master's address, at most 10 more tries 2 s apart. */
  masterRetries: 10,
  /** Orange Money: a new QR code only 180 s after the last paid one; its status every 2 s; success shown 5 s. */
  orangeMoneyCooldownSec: 180,
  orangeMoneyPollMs: 2000,
  successDelayMs: 5000,
  /** The panel closes 2 s after a success. */
  panelCloseDelayMs: 2000,
  /** The yearly price: 12 months less 20 %. */
  yearlyDiscountPercent: 20,
} as const;

/** Spec §9: a mix is polled at most 30 times, then its final mix's address 3 more times. */
export const MIXING_LIMITS = { ...PAYMENT_LIMITS, statusPolls: 30, masterRetries: 3 } as const;

/** The limits that apply to a result of `service`. */
export const unlockLimits = (service: string) => (service === 'AI_MIXING' ? MIXING_LIMITS : PAYMENT_LIMITS);

/** The contract's payment providers. */
export type Provider = PaymentProvider;

/** Spec §5: Orange Money only in XOF and out of its cooldown; PayPal (cards too) never in XOF. */
export function availableProviders(
  currency: Currency,
  cooldownRemainingSec: number,
  offered: readonly Provider[] = ['PAYPAL', 'ORANGE_MONEY'],
): Provider[] {
  const providers: Provider[] = currency === 'XOF' ? (cooldownRemainingSec > 0 ? [] : ['ORANGE_MONEY']) : ['PAYPAL'];
  return providers.filter((provider) => offered.includes(provider));
}

/** Spec §5: a credit is used only while the service has credits left. */
export function canUseCredit(remaining: number | null | undefined): boolean {
  return typeof remaining === 'number' && remaining > 0;
}

/** 12 months less 20 %, rounded to the currency's unit (XOF has no cents). */
export function yearlyPrice(monthly: number, currency: Currency): number {
  const total = monthly * 12 * (1 - PAYMENT_LIMITS.yearlyDiscountPercent / 100);
  return currency === 'XOF' ? Math.round(total) : Math.round(total * 100) / 100;
}

export const COOLDOWN_KEY = 'orangeMoneyCooldownUntil';

interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Starts the Orange Money cooldown after a paid payment (kept in local storage so a reload keeps it). */
export function startCooldown(store: KeyValueStore, now: number): number {
  const until = now + PAYMENT_LIMITS.orangeMoneyCooldownSec * 1000;
  store.setItem(COOLDOWN_KEY, String(until));
  return until;
}

/** Whole seconds left in the cooldown, 0 when none (a past or unreadable value is forgotten). */
export function cooldownRemaining(store: KeyValueStore, now: number): number {
  const until = Number(store.getItem(COOLDOWN_KEY));
  if (!Number.isFinite(until) || until <= now) {
    if (store.getItem(COOLDOWN_KEY) !== null) store.removeItem(COOLDOWN_KEY);
    return 0;
  }
  // A value much further away than the cooldown itself was not written by us (a clock read a second late is).
  if (until - now > (PAYMENT_LIMITS.orangeMoneyCooldownSec + 60) * 1000) {
    store.removeItem(COOLDOWN_KEY);
    return 0;
  }
  return Math.min(PAYMENT_LIMITS.orangeMoneyCooldownSec, Math.ceil((until - now) / 1000));
}

/** m:ss, for countdowns. */
export function clock(seconds: number): string {
  const safe = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(safe / 60)}:${String(safe % 60).padStart(2, '0')}`;
}

export type UnlockOutcome = 'ready' | 'failed' | 'timeout';

export interface UnlockProbe {
  /** The track's status (`GET /api/audio/track/{id}/status`). */
  status(): Promise<string>;
  /** Whether the full result can now be downloaded (`GET /api/audio/track/{id}`: see `resultDownloadable`). */
  downloadable(): Promise<boolean>;
  /** Waits `ms` at most before asking again; resolves sooner when the socket reports a change of the track. */
  sleep(ms: number): Promise<void>;
  /** Stops early (the view went away). */
  cancelled?(): boolean;
}

/** A track as `GET /api/audio/track/{id}` shows it, as far as its downloads go. */
export interface DownloadableView {
  unlocked: boolean;
  masterUrl: string | null;
  stems?: Record<string, string>;
}

/**
 * Whether the full result can be downloaded: unlocked, with its master (mastering, enhancement) or its stems (a stem
 * separation has stems and no master; locked, its stems are the previews).
 */
export function resultDownloadable(view: DownloadableView): boolean {
  return view.unlocked && (view.masterUrl !== null || Object.keys(view.stems ?? {}).length > 0);
}

/**
 * Spec §4, after a payment or a credit: the status every 2 s, up to 60 tries, until the track is MASTER_READY (or
 * COMPLETED); FAILED stops. Then its downloads, up to 10 tries 2 s apart. A failed request counts as a try. The
 * first question is asked at once: an unlock answers once its result can be downloaded, and a payment's grant
 * reaches the socket, which cuts the wait short (`sleep`).
 */
export async function waitForMaster(
  probe: UnlockProbe,
  limits: { statusPolls: number; statusPollMs: number; masterRetries: number } = PAYMENT_LIMITS,
): Promise<UnlockOutcome> {
  let ready = false;
  for (let attempt = 0; attempt < limits.statusPolls; attempt += 1) {
    if (probe.cancelled?.()) return 'timeout';
    const status = await probe.status().catch(() => null);
    if (status === 'FAILED') return 'failed';
    if (status === 'MASTER_READY' || status === 'COMPLETED') {
      ready = true;
      break;
    }
    await probe.sleep(limits.statusPollMs);
  }
  if (!ready) return 'timeout';
  for (let attempt = 0; attempt <= limits.masterRetries; attempt += 1) {
    if (probe.cancelled?.()) return 'timeout';
    if (await probe.downloadable().catch(() => false)) return 'ready';
    if (attempt < limits.masterRetries) await probe.sleep(limits.statusPollMs);
  }
  return 'timeout';
}
