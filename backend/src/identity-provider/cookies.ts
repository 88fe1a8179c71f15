import type { Request, Response } from 'express';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** Reads one cookie without a cookie parser. */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Sets one of the pages' own cookies (the language, the trusted device): a year long, under /oidc, HTTP only. */
export function setPageCookie(res: Response, name: string, value: string, secure: boolean): void {
  res.cookie(name, value, { path: '/oidc', sameSite: 'lax', secure, maxAge: YEAR_MS, httpOnly: true });
}
