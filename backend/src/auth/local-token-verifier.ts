import type { AuthenticatedUser } from '@kora/kernel/nest';
import { errors, jwtVerify, SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InvalidTokenError, TokenVerifier } from './token-verifier';

export const LOCAL_ISSUER = 'kora-local';
export const API_AUDIENCE = 'kora-api';

/**
 * HS256 tokens signed with a server secret (AUTH_SECRET, or one generated once under DATA_DIR/secrets). This is the
 * verifier the foundation ships so that the HTTP guard and the socket handshake are real from day one; the identity
 * module replaces it with the OpenID Connect verifier (built-in provider or an external issuer).
 */
export class LocalTokenVerifier extends TokenVerifier {
  private readonly key: Uint8Array;

  constructor(secret: string | Uint8Array) {
    super();
    this.key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  }

  static fromDataDir(dataDir: string, configured?: string): LocalTokenVerifier {
    if (configured) return new LocalTokenVerifier(configured);
    const file = join(dataDir, 'secrets', 'auth-secret');
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return new LocalTokenVerifier(readFileSync(file, 'utf8').trim());
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
