import { RateLimiter, type ReadStore } from '@kora/kernel';
import type { Request, Response } from 'express';
import { fill, IDP_STRINGS, type IdpLanguage } from './locales';
import { waitInWords } from './login-throttle';

/** Sign-up and reset requests per client address and per account (sign-in has its own: `LOGIN_THROTTLE`). */
export const LIMITS = {
  signupPerAddress: { limit: 10, windowSeconds: 60 * 60 },
  resetPerAddress: { limit: 10, windowSeconds: 60 * 60 },
  resetPerAccount: { limit: 3, windowSeconds: 60 * 60 },
  trustPerAddress: { limit: 10, windowSeconds: 60 * 60 },
  trustPerAccount: { limit: 3, windowSeconds: 60 * 60 },
} as const;

/**
 * The fixed-window limits of `LIMITS`, shared by every replica (the read store's `_rate_limits`). Each call counts one
 * request and answers 0, or, once the window's allowance is spent, the seconds to wait (without counting).
 */
export class PageLimits {
  private readonly limiter: RateLimiter;

  constructor(store: ReadStore, now: () => number) {
    this.limiter = new RateLimiter(store, now);
  }

  /** A sign-up form sent from this client address. */
  signUp(address: string): Promise<number> {
    return this.limiter.hit(`signup:ip:${address}`, LIMITS.signupPerAddress);
  }

  /** A forgotten-password form sent from this client address. */
  resetRequest(address: string): Promise<number> {
    return this.limiter.hit(`reset:ip:${address}`, LIMITS.resetPerAddress);
  }

  /** A request, from this client address, for a link that makes the browser a recognised one. */
  trustRequest(address: string): Promise<number> {
    return this.limiter.hit(`trust:ip:${address}`, LIMITS.trustPerAddress);
  }

  /** A mail with such a link to this account. */
  trustMail(userId: string): Promise<number> {
    return this.limiter.hit(`trust:account:${userId}`, LIMITS.trustPerAccount);
  }

  /** A mail with a reset link to this account (a reset request, or the warning of a sign-up with its address). */
  resetMail(userId: string): Promise<number> {
    return this.limiter.hit(`reset:account:${userId}`, LIMITS.resetPerAccount);
  }
}

/** The client's address the limits count, as Express sees it through the trusted proxies. */
export function clientAddress(req: Request): string {
  return req.ip ?? 'unknown';
}

/** The text of a 429, with `Retry-After` set on the response. */
export function tooMany(res: Response, language: IdpLanguage, seconds: number): string {
  res.setHeader('Retry-After', String(seconds));
  return fill(IDP_STRINGS[language].errors.tooMany, { wait: waitInWords(seconds, language) });
}
