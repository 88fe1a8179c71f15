import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `<claims>.<HMAC-SHA256>`, both base64url: a link that proves itself (the e-mailed downloads of every module). The
 * claims are visible to whoever holds the link; put in them only what the link may say (ids, a file, an expiry).
 */
export function signLink(claims: object, secret: Buffer): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** The claims of a link signed with `secret`, or null (forged, altered, malformed). */
export function verifyLink<T extends object>(token: string, secret: Buffer): T | null {
  const [body, signature] = token.split('.');
  if (!body || !signature) return null;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as T) : null;
  } catch {
    return null;
  }
}
