import { describe, expect, it } from '@jest/globals';
import {
  availableProviders,
  canUseCredit,
  clock,
  COOLDOWN_KEY,
  cooldownRemaining,
  PAYMENT_LIMITS,
  startCooldown,
  type UnlockProbe,
  unlockLimits,
  resultDownloadable,
  waitForMaster,
  yearlyPrice,
} from './rules';

class MemoryStore {
  values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
}

describe('payment availability by currency (spec §5)', () => {
  it('offers Orange Money only in XOF, and not during its cooldown', () => {
    expect(availableProviders('XOF', 0)).toEqual(['ORANGE_MONEY']);
    expect(availableProviders('XOF', 42)).toEqual([]);
  });
  it('offers PayPal for USD and EUR, never for XOF, cooldown or not', () => {
    expect(availableProviders('USD', 0)).toEqual(['PAYPAL']);
    expect(availableProviders('EUR', 120)).toEqual(['PAYPAL']);
    expect(availableProviders('XOF', 0)).not.toContain('PAYPAL');
  });
  it('offers only what the server offers (a provider turned off is never shown)', () => {
    expect(availableProviders('XOF', 0, ['PAYPAL'])).toEqual([]);
    expect(availableProviders('USD', 0, ['ORANGE_MONEY'])).toEqual([]);
    expect(availableProviders('USD', 0, ['PAYPAL'])).toEqual(['PAYPAL']);
  });
});

describe('the Orange Money cooldown (180 s in local storage)', () => {
  it('counts down from 180 s and forgets itself once over', () => {
    const store = new MemoryStore();
    const now = 1_000_000;
    expect(cooldownRemaining(store, now)).toBe(0);
    startCooldown(store, now);
    expect(store.getItem(COOLDOWN_KEY)).toBe(String(now + 180_000));
    expect(cooldownRemaining(store, now)).toBe(180);
    // A clock read a little before the cooldown began (a render's "now") keeps it.
    expect(cooldownRemaining(store, now - 900)).toBe(180);
    expect(store.getItem(COOLDOWN_KEY)).toBe(String(now + 180_000));
    expect(cooldownRemaining(store, now + 60_500)).toBe(120);
    expect(cooldownRemaining(store, now + 179_001)).toBe(1);
    expect(cooldownRemaining(store, now + 180_000)).toBe(0);
    expect(store.getItem(COOLDOWN_KEY)).toBeNull();
  });
  it('ignores what it did not write: garbage or an end too far away', () => {
    const store = new MemoryStore();
    store.setItem(COOLDOWN_KEY, 'soon');
    expect(cooldownRemaining(store, 5)).toBe(0);
    store.setItem(COOLDOWN_KEY, String(10_000_000));
    expect(cooldownRemaining(store, 5)).toBe(0);
    expect(store.getItem(COOLDOWN_KEY)).toBeNull();
  });
  it('shows the remaining time as m:ss', () => {
    expect(clock(180)).toBe('3:00');
    expect(clock(61)).toBe('1:01');
    expect(clock(0.2)).toBe('0:01');
    expect(clock(-3)).toBe('0:00');
  });
});

describe('credits and yearly prices', () => {
  it('uses a credit only with credits left for the service', () => {
    expect(canUseCredit(1)).toBe(true);
    expect(canUseCredit(0)).toBe(false);
    expect(canUseCredit(-2)).toBe(false);
    expect(canUseCredit(undefined)).toBe(false);
    expect(canUseCredit(null)).toBe(false);
  });
  it('prices a year as 12 months less 20 %, whole francs in XOF, cents elsewhere', () => {
    expect(yearlyPrice(10_000, 'XOF')).toBe(96_000);
    expect(yearlyPrice(3_333, 'XOF')).toBe(31_997);
    expect(yearlyPrice(19.99, 'USD')).toBe(191.9);
    expect(yearlyPrice(4.99, 'EUR')).toBe(47.9);
  });
});

/** A probe answering the given statuses in turn, then the last one forever; the master after `masterAfter` asks. */
function probe(statuses: Array<string | Error>, masterAfter = 0) {
  const calls = { status: 0, master: 0, slept: [] as number[] };
  const fake: UnlockProbe = {
    async status() {
      const next = statuses[Math.min(calls.status, statuses.length - 1)]!;
      calls.status += 1;
      if (next instanceof Error) throw next;
      return next;
    },
    async downloadable() {
      calls.master += 1;
      return calls.master > masterAfter;
    },
    async sleep(ms) {
      calls.slept.push(ms);
    },
  };
  return { fake, calls };
}

describe('what counts as downloadable after an unlock', () => {
  it('a master, or the stems of a separation (which has no master), once unlocked', () => {
    expect(resultDownloadable({ unlocked: true, masterUrl: '/m', stems: {} })).toBe(true);
    expect(resultDownloadable({ unlocked: true, masterUrl: null, stems: { vocals: '/v', original: '/o' } })).toBe(true);
    expect(resultDownloadable({ unlocked: false, masterUrl: null, stems: { vocals: '/v' } })).toBe(false);
    expect(resultDownloadable({ unlocked: true, masterUrl: null, stems: {} })).toBe(false);
  });
});

describe('the polling after a payment or a credit (spec §4, §9)', () => {
  it('polls every 2 s until MASTER_READY, then finds the master', async () => {
    const { fake, calls } = probe(['PREVIEW_READY', new Error('offline'), 'PREVIEW_READY', 'MASTER_READY']);
    await expect(waitForMaster(fake)).resolves.toBe('ready');
    expect(calls.status).toBe(4);
    expect(calls.slept).toEqual([2000, 2000, 2000]);
  });
  it('gives up after 60 status polls', async () => {
    const { fake, calls } = probe(['PREVIEW_READY']);
    await expect(waitForMaster(fake)).resolves.toBe('timeout');
    expect(calls.status).toBe(PAYMENT_LIMITS.statusPolls);
    expect(calls.master).toBe(0);
  });
  it('stops at FAILED', async () => {
    const { fake, calls } = probe(['STEMS_READY', 'FAILED']);
    await expect(waitForMaster(fake)).resolves.toBe('failed');
    expect(calls.status).toBe(2);
  });
  it('waits for the downloads up to 10 retries, then times out', async () => {
    const late = probe(['MASTER_READY'], 10);
    await expect(waitForMaster(late.fake)).resolves.toBe('ready');
    expect(late.calls.master).toBe(11);
    const never = probe(['MASTER_READY'], 99);
    await expect(waitForMaster(never.fake)).resolves.toBe('timeout');
    expect(never.calls.master).toBe(1 + PAYMENT_LIMITS.masterRetries);
  });
  it('asks nothing more once the first answers say the result downloads (an unlock answers when it does)', async () => {
    const { fake, calls } = probe(['MASTER_READY']);
    await expect(waitForMaster(fake)).resolves.toBe('ready');
    expect(calls).toEqual({ status: 1, master: 1, slept: [] });
  });
  it('polls a mix at most 30 times, then its final mix 3 more times', async () => {
    const { fake, calls } = probe(['PROCESSING']);
    await expect(waitForMaster(fake, unlockLimits('AI_MIXING'))).resolves.toBe('timeout');
    expect(calls.status).toBe(30);
    const never = probe(['MASTER_READY'], 99);
    await expect(waitForMaster(never.fake, unlockLimits('AI_MIXING'))).resolves.toBe('timeout');
    expect(never.calls.master).toBe(4);
    expect(unlockLimits('AI_MASTERING')).toBe(PAYMENT_LIMITS);
  });
});
