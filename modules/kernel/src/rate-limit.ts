import type { Document, ReadStore } from './read-store';

interface CounterDoc extends Document {
  count: number;
  windowStart: number;
}

export const RATE_LIMITS = '_rate_limits';

export interface RateLimit {
  readonly limit: number;
  readonly windowSeconds: number;
}

/**
 * Fixed-window counters in the read store, shared by every replica. `hit` counts an attempt and answers 0, or, when
 * the window's allowance is spent, answers how many seconds remain without counting.
 */
export class RateLimiter {
  constructor(
    private readonly store: ReadStore,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string, { limit, windowSeconds }: RateLimit): Promise<number> {
    return this.store.transaction(async (tx) => {
      const counters = tx.collection<CounterDoc>(RATE_LIMITS);
      const now = this.now();
      const current = await counters.findById(key);
      const doc =
        !current || now - current.windowStart >= windowSeconds * 1000
          ? { _id: key, count: 0, windowStart: now }
          : current;
      if (doc.count >= limit) return Math.ceil((doc.windowStart + windowSeconds * 1000 - now) / 1000);
      await counters.upsert({ ...doc, count: doc.count + 1 });
      return 0;
    });
  }

  /** The wait the limit imposes right now, without counting an attempt. */
  async peek(key: string, { limit, windowSeconds }: RateLimit): Promise<number> {
    const doc = await this.store.collection<CounterDoc>(RATE_LIMITS).findById(key);
    const now = this.now();
    if (!doc || now - doc.windowStart >= windowSeconds * 1000 || doc.count < limit) return 0;
    return Math.ceil((doc.windowStart + windowSeconds * 1000 - now) / 1000);
  }

  async clear(key: string): Promise<void> {
    await this.store.collection(RATE_LIMITS).deleteById(key);
  }
}
