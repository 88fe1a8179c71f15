import type { Document, ReadStore } from '@kora/kernel';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Progressive delays: `free` failures cost nothing, then each one doubles the wait, from `baseSeconds` to `maxSeconds`. */
export interface BackoffPolicy {
  readonly free: number;
  readonly baseSeconds: number;
  readonly maxSeconds: number;
  /** A quiet period after which the failures are forgotten. */
  readonly forgetAfterSeconds: number;
}

/**
 * Sign-in throttling without lockouts. Every attempt counts as a failure until the password proves right (so parallel
 * guesses cannot slip through between the check and the count), and a too-early attempt is answered 429 with the
 * seconds to wait, without looking at the password:
 * - per account and client address (or per trusted device): 3 free failures, then 1 s, 2 s, 4 s, ... up to 15 min;
 * - per account, from anywhere (a guesser spread over many addresses): 10 free failures, then 1 s doubling up to 5 min;
 * - per client address across accounts (credential stuffing): a bucket of 100 failures that drains one every 3 s, so
 *   the honest users of one NAT wait seconds at worst, never a lockout.
 * The owner with the right password gets in once the current delay has passed, from any address; a browser that
 * signed in to the account before (the `kora_device` cookie) only waits for its own failures.
 */
export const LOGIN_THROTTLE = {
  pair: { free: 3, baseSeconds: 1, maxSeconds: 15 * 60, forgetAfterSeconds: 60 * 60 },
  account: { free: 10, baseSeconds: 1, maxSeconds: 5 * 60, forgetAfterSeconds: 60 * 60 },
  address: { capacity: 100, drainSeconds: 3 },
} as const;

export const DEVICE_COOKIE = 'kora_device';
const COLLECTION = '_login_throttle';

interface BackoffDoc extends Document {
  failures: number;
  lastFailureAt: number;
}

interface BucketDoc extends Document {
  level: number;
  at: number;
}

/** What an allowed attempt reports back once the password has been checked. */
export interface LoginAttempt {
  /** The password was right: the account's and this pair's failures are forgotten, the address gets its unit back. */
  succeeded(): Promise<void>;
}

export type ThrottleAnswer = { wait: number; attempt?: undefined } | { wait: 0; attempt: LoginAttempt };

export class LoginThrottle {
  constructor(
    private readonly store: ReadStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Asks to try a password: either the seconds to wait (nothing is counted), or an attempt already counted as a
   * failure, to be reported as a success when the password is right. `device` is the nonce of a trusted device
   * cookie for this account, or null.
   */
  begin(email: string, address: string, device: string | null): Promise<ThrottleAnswer> {
    const pairKey = device ? `device:${device}` : `pair:${email}:${address}`;
    const accountKey = `account:${email}`;
    const addressKey = `address:${address}`;
    return this.store.transaction(async (tx) => {
      const docs = tx.collection<BackoffDoc | BucketDoc>(COLLECTION);
      const now = this.now();
      const pair = backoff((await docs.findById(pairKey)) as BackoffDoc | null, LOGIN_THROTTLE.pair, now);
      const account = backoff((await docs.findById(accountKey)) as BackoffDoc | null, LOGIN_THROTTLE.account, now);
      const level = drained((await docs.findById(addressKey)) as BucketDoc | null, now);
      const addressWait = Math.max(
        0,
        (level + 1 - LOGIN_THROTTLE.address.capacity) * LOGIN_THROTTLE.address.drainSeconds,
      );
      // A trusted device is exempt from what strangers cause: the account-wide and the address-wide limits.
      const wait = Math.ceil(Math.max(pair.wait, device ? 0 : Math.max(account.wait, addressWait)));
      if (wait > 0) return { wait };
      await docs.upsert({ _id: pairKey, failures: pair.failures + 1, lastFailureAt: now });
      await docs.upsert({ _id: accountKey, failures: account.failures + 1, lastFailureAt: now });
      await docs.upsert({ _id: addressKey, level: level + 1, at: now });
      return {
        wait: 0,
        attempt: {
          succeeded: () =>
            this.store.transaction(async (inner) => {
              const current = inner.collection<BackoffDoc | BucketDoc>(COLLECTION);
              await current.deleteById(pairKey);
              await current.deleteById(accountKey);
              const bucket = (await current.findById(addressKey)) as BucketDoc | null;
              if (bucket) await current.upsert({ ...bucket, level: Math.max(0, bucket.level - 1) });
            }),
        },
      };
    });
  }
}

function backoff(doc: BackoffDoc | null, policy: BackoffPolicy, now: number): { failures: number; wait: number } {
  if (!doc || now - doc.lastFailureAt >= policy.forgetAfterSeconds * 1000) return { failures: 0, wait: 0 };
  if (doc.failures < policy.free) return { failures: doc.failures, wait: 0 };
  const delay = Math.min(policy.baseSeconds * 2 ** (doc.failures - policy.free), policy.maxSeconds);
  return { failures: doc.failures, wait: Math.max(0, (doc.lastFailureAt + delay * 1000 - now) / 1000) };
}

function drained(doc: BucketDoc | null, now: number): number {
  if (!doc) return 0;
  return Math.max(0, doc.level - (now - doc.at) / (LOGIN_THROTTLE.address.drainSeconds * 1000));
}

/**
 * The trusted-device cookie: a random nonce and an HMAC binding it to one account's e-mail address, set when a
 * sign-in succeeds. It names no one (the address is only inside the HMAC).
 */
export class DeviceCookies {
  constructor(private readonly key: string) {}

  issue(email: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.sign(email, nonce)}`;
  }

  /** The cookie's nonce when it was issued for this address, else null. */
  nonceFor(value: string | undefined, email: string): string | null {
    const [nonce, mac] = (value ?? '').split('.');
    if (!nonce || !mac || !/^[\w-]{16,64}$/.test(nonce)) return null;
    const expected = Buffer.from(this.sign(email, nonce));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
  }

  private sign(email: string, nonce: string): string {
    return createHmac('sha256', this.key).update(`kora-device\n${email}\n${nonce}`).digest('base64url');
  }
}

/** A wait in words: seconds under two minutes, whole minutes beyond. */
export function waitInWords(seconds: number, language: 'en' | 'fr'): string {
  if (seconds < 120) {
    const unit = language === 'fr' ? (seconds > 1 ? 'secondes' : 'seconde') : seconds > 1 ? 'seconds' : 'second';
    return `${seconds} ${unit}`;
  }
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
