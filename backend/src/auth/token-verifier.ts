import type { AuthenticatedUser } from '@kora/kernel/nest';

/** Thrown for a missing, malformed, expired or untrusted token. Always answered 401 `Authentication required`. */
export class InvalidTokenError extends Error {
  readonly code = 'AUTH.INVALID_TOKEN';
}

/**
 * Checks a bearer token and says who it belongs to. The HTTP guard and the Socket.IO handshake both use it, so
 * swapping the issuer (built-in provider, Auth0, any OIDC issuer) changes one provider.
 */
export abstract class TokenVerifier {
  abstract verify(token: string): Promise<AuthenticatedUser & { expiresAt: number | null }>;
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(\S+)$/i.exec(value ?? '');
  return match ? match[1]! : null;
}
