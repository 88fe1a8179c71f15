import type { AuthenticatedUser } from '@kora/kernel/nest';
import { errors, jwtVerify, SignJWT } from 'jose';
import { InvalidTokenError, TokenVerifier } from '../../src/auth/token-verifier';

export const LOCAL_ISSUER = 'kora-local';
export const API_AUDIENCE = 'kora-api';

/**
 * HS256 tokens signed with a test secret: lets the spine's tests (CQRS, sockets, operations) run without going
 * through a sign-in. The product verifies OpenID access tokens (OidcTokenVerifier); identity tests use those.
 */
export class LocalTokenVerifier extends TokenVerifier {
  private readonly key: Uint8Array;

  constructor(secret: string | Uint8Array) {
    super();
    this.key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  }

  async sign(userId: string, options: { email?: string; expiresIn?: string } = {}): Promise<string> {
    return new SignJWT({ ...(options.email ? { email: options.email } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer(LOCAL_ISSUER)
      .setAudience(API_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '1h')
      .sign(this.key);
  }

  async verify(token: string): Promise<AuthenticatedUser & { expiresAt: number | null }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: LOCAL_ISSUER,
        audience: API_AUDIENCE,
        algorithms: ['HS256'],
      });
      if (!payload.sub) throw new InvalidTokenError('Token has no subject');
      return {
        userId: payload.sub,
        ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
        claims: payload,
        expiresAt: payload.exp ? payload.exp * 1000 : null,
      };
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof errors.JOSEError) throw new InvalidTokenError(error.code);
      throw error;
    }
  }
}
