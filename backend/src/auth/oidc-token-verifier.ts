import type { AuthenticatedUser } from '@kora/kernel/nest';
import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { InvalidTokenError, TokenVerifier } from './token-verifier';

const CACHE_LIMIT = 10_000;

/** Asymmetric algorithms only: a token signed with `none` or a shared secret is never accepted. */
export const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/**
 * Verifies the API's bearer tokens as JWTs from one OpenID issuer: signature against the issuer's keys, `iss`, `aud`,
 * expiry (5 s of clock tolerance) and algorithm. The built-in provider hands over its keys directly; an external
 * issuer's keys are fetched from its discovery document and cached (jose refreshes them on an unknown `kid`).
 */
export class OidcTokenVerifier extends TokenVerifier {
  private keys: JWTVerifyGetKey | null;
  /** Tokens already verified, until they expire: a client sends the same token with every call. */
  private readonly verified = new Map<string, AuthenticatedUser & { expiresAt: number }>();

  constructor(
    private readonly issuer: string,
    private readonly audience: string,
    keys?: JWTVerifyGetKey,
  ) {
    super();
    this.keys = keys ?? null;
  }

  async verify(token: string): Promise<AuthenticatedUser & { expiresAt: number | null }> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt - 5_000 > Date.now()) return known;
      this.verified.delete(token);
    }
    const user = await this.verifySignature(token);
    if (this.verified.size >= CACHE_LIMIT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, user);
    return user;
  }

  private async verifySignature(token: string): Promise<AuthenticatedUser & { expiresAt: number }> {
    try {
      const { payload } = await jwtVerify(token, await this.keySet(), {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: ACCEPTED_ALGORITHMS,
        clockTolerance: 5,
        requiredClaims: ['sub', 'exp'],
      });
      return {
        userId: payload.sub!,
        ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
        claims: payload,
        expiresAt: payload.exp! * 1000,
      };
    } catch (error) {
      if (error instanceof errors.JOSEError) throw new InvalidTokenError(error.code);
      throw error;
    }
  }

  private async keySet(): Promise<JWTVerifyGetKey> {
    if (this.keys) return this.keys;
    const discovery = await discover(this.issuer);
    if (typeof discovery.jwks_uri !== 'string') throw new Error(`${this.issuer} publishes no jwks_uri`);
    this.keys = createRemoteJWKSet(new URL(discovery.jwks_uri), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    return this.keys;
  }
}

const discoveries = new Map<string, Promise<Record<string, unknown>>>();

/** The issuer's OpenID discovery document (cached per process; a failure is retried on the next call). */
export function discover(issuer: string): Promise<Record<string, unknown>> {
  let pending = discoveries.get(issuer);
  if (!pending) {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    pending = fetch(url, { signal: AbortSignal.timeout(10_000) }).then(async (response) => {
      if (!response.ok) throw new Error(`OpenID discovery at ${url} answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    });
    pending.catch(() => discoveries.delete(issuer));
    discoveries.set(issuer, pending);
  }
  return pending;
}
