import { IdentityProvider, type ProviderProfile } from '@kora/identity';
import type { Logger } from 'pino';
import { discover } from '../auth/oidc-token-verifier';

/**
 * Any external OpenID issuer (Auth0, Keycloak, ...). The person's claims come from its UserInfo endpoint; passwords,
 * sessions and the deletion of credentials stay with that issuer (the web client calls its password-change flow).
 */
export class ExternalIdentityProvider extends IdentityProvider {
  readonly kind = 'external' as const;

  constructor(
    readonly issuer: string,
    private readonly logger: Logger,
  ) {
    super();
  }

  async profile(userId: string, accessToken: string): Promise<ProviderProfile> {
    const discovery = await discover(this.issuer);
    if (typeof discovery.userinfo_endpoint !== 'string')
      throw new Error(`${this.issuer} publishes no userinfo endpoint`);
    const response = await fetch(discovery.userinfo_endpoint, {
      headers: { Authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`UserInfo answered ${response.status}`);
    const claims = (await response.json()) as Record<string, unknown>;
    if (claims.sub !== userId) throw new Error('UserInfo returned another subject');
    const text = (value: unknown): string | null =>
      typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
    const email = text(claims.email);
    if (!email) throw new Error('The issuer shares no e-mail address: request the email scope');
    return {
      email,
      emailVerified: claims.email_verified === true,
      givenName: text(claims.given_name),
      familyName: text(claims.family_name),
      name: text(claims.name),
      locale: text(claims.locale),
    };
  }

  async requestPasswordReset(): Promise<void> {
    // The external issuer runs its own reset flow (for Auth0, the client calls /dbconnections/change_password).
  }

  async endSessions(userId: string): Promise<void> {
    this.logger.info({ userId }, 'sessions end at the external issuer when the client signs out there');
  }

  async endSession(userId: string, sessionId: string): Promise<void> {
    this.logger.info({ userId, sessionId }, 'the session ends at the external issuer when the client signs out there');
  }

  async deleteUser(userId: string): Promise<void> {
    this.logger.warn({ userId }, 'account purged here: delete the user at the external issuer too');
  }
}
