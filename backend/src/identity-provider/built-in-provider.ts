import { AfterResponse, type Language, IdentityProvider, type ProviderProfile } from '@kora/identity';
import type { Mailer, ReadStore } from '@kora/kernel';
import express, { Router } from 'express';
import { importJWK, SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Provider } from 'oidc-provider';
import type { Logger } from 'pino';
import { LONGEST_ACCESS_TOKEN_SECONDS } from '../auth/token-lifetimes';
import type { Config } from '../config/config';
import { IdpStore } from './idp-store';
import { confirmEmailRoutes } from './interactions/confirm-email';
import type { InteractionContext } from './interactions/context';
import { pageErrorHandler } from './interactions/error-pages';
import { forgotPasswordRoutes } from './interactions/forgot-password';
import { resetPasswordRoutes, sendPasswordReset } from './interactions/reset-password';
import { signInRoutes } from './interactions/sign-in';
import { signUpRoutes } from './interactions/sign-up';
import { DeviceCookies, LoginThrottle } from './login-throttle';
import { sweepExpired } from './oidc-adapter';
import { loadOrCreateKeys, type OidcKeys, publicJwks } from './oidc-keys';
import { Pages } from './pages';
import { providerConfiguration } from './provider-configuration';
import { pinPublicOrigin } from './public-origin';
import { PageLimits } from './rate-limits';

/** A provider session as oidc-provider stores it (`oidc-adapter.ts`): `uid` is what access tokens carry as `sid`. */
interface OidcSessionDoc {
  _id: string;
  uid: string | null;
  payload: { accountId?: string; authorizations?: Record<string, { grantId?: string }> };
}

/**
 * The built-in OpenID Connect provider (oidc-provider) mounted at /oidc: authorization code with PKCE for the web
 * client, refresh tokens, JWT access tokens for the API audience, RP-initiated logout, and its own pages in English
 * and French: sign in, create an account, forgot password, reset password, confirm e-mail.
 *
 * This class composes them: oidc-provider's configuration (`provider-configuration.ts`), one file per page of the
 * flow (`interactions/`), the pages' rendering (`pages.ts`), their limits (`rate-limits.ts`, `login-throttle.ts`);
 * and answers the `IdentityProvider` port for the accounts module.
 */
export class BuiltInIdentityProvider extends IdentityProvider {
  readonly kind = 'built-in' as const;
  readonly issuer: string;
  private provider!: Provider;
  private keys!: OidcKeys;
  private context!: InteractionContext;
  private sweeper: NodeJS.Timeout | null = null;
  readonly users: IdpStore;
  private readonly pages: Pages;
  private readonly limits: PageLimits;
  private readonly afterAnswer = new AfterResponse();

  constructor(
    private readonly config: Config,
    private readonly store: ReadStore,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.issuer = config.oidc.issuer;
    this.users = new IdpStore(store, now);
    this.pages = new Pages(config);
    this.limits = new PageLimits(store, now);
  }

  async init(): Promise<void> {
    await this.users.ensureIndexes();
    await this.store.ensureIndexes('_oidc', [{ fields: { grantId: 1 } }, { fields: { model: 1, uid: 1 } }]);
    this.keys = await loadOrCreateKeys(this.store);
    // Loaded here rather than at the top: oidc-provider is ESM-only, and it warns about Node 20 on load, which
    // should come after the configuration has been validated (and not at all with an external issuer).
    const oidc = await import('oidc-provider');
    const { config, store, users, keys, pages, logger, now } = this;
    this.provider = new oidc.Provider(
      this.issuer,
      providerConfiguration({ config, store, users, keys, errors: oidc.errors, pages, logger, now }),
    );
    this.provider.proxy = this.config.TRUST_PROXY > 0;
    // Discovery's endpoints and the cookies' Secure flag follow PUBLIC_URL, never the request's Host or scheme.
    pinPublicOrigin(this.provider, this.config.publicUrl);
    this.provider.on('server_error', (_ctx, error) => this.logger.error({ err: error }, 'oidc server error'));
    this.context = {
      config,
      provider: this.provider,
      errors: oidc.errors,
      users,
      mailer: this.mailer,
      logger,
      pages,
      limits: this.limits,
      throttle: new LoginThrottle(store, now),
      devices: new DeviceCookies(keys.cookieKeys[0]!),
      afterAnswer: this.afterAnswer,
      signOutEverywhere: async (userId) => {
        await this.endSessions(userId);
        await this.onPasswordReset?.(userId);
      },
    };
    this.sweeper = setInterval(() => void sweepExpired(this.store).catch(() => undefined), 15 * 60 * 1000);
    this.sweeper.unref();
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Resolves once the work started after answers (mails, tokens) is done (shutdown, tests). */
  idle(): Promise<void> {
    return this.afterAnswer.idle();
  }

  /**
   * An access token for the API, shaped like the ones the token endpoint issues (for `npm run users -- token`:
   * scripts and support). The provider's own flows never use it.
   */
  async signAccessToken(
    userId: string,
    minutes: number,
    clientId: string,
    audience: string,
    sessionId?: string,
  ): Promise<string> {
    const jwk = this.keys.jwks[0]!;
    return new SignJWT({ scope: 'api', client_id: clientId, ...(sessionId ? { sid: sessionId } : {}) })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid! })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setSubject(userId)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt()
      .setExpirationTime(`${Math.max(1, Math.min(minutes, LONGEST_ACCESS_TOKEN_SECONDS / 60))}m`)
      .sign(await importJWK(jwk, 'RS256'));
  }

  /** The verification keys, for the API's token verifier (no HTTP round trip to ourselves). */
  get jwks() {
    return { keys: publicJwks(this.keys) };
  }

  get oidc(): Provider {
    return this.provider;
  }

  // ---- The IdentityProvider port -------------------------------------------------------------------------

  async profile(userId: string): Promise<ProviderProfile> {
    const user = await this.users.findById(userId);
    if (!user) throw new Error(`No user ${userId} in the built-in provider`);
    return {
      email: user.email,
      emailVerified: user.emailVerified,
      givenName: user.givenName,
      familyName: user.familyName,
      name: `${user.givenName} ${user.familyName}`.trim(),
      locale: user.locale,
    };
  }

  requestPasswordReset(email: string, language: Language): Promise<void> {
    const { config, users, limits, mailer } = this;
    return sendPasswordReset({ config, users, limits, mailer }, email, language);
  }

  async endSessions(userId: string): Promise<void> {
    await this.endSessionsWhere(userId, () => true);
    await this.oidcStore().deleteMany({ model: 'Grant', 'payload.accountId': userId });
  }

  /** `sessionId`: the provider session's uid, which access tokens carry as `sid`. */
  async endSession(userId: string, sessionId: string): Promise<void> {
    await this.endSessionsWhere(userId, (session) => session.uid === sessionId);
  }

  private oidcStore() {
    return this.store.collection<OidcSessionDoc>('_oidc');
  }

  /** Deletes the user's provider sessions that `chosen` picks, with their grants' tokens (refresh tokens included). */
  private async endSessionsWhere(userId: string, chosen: (session: OidcSessionDoc) => boolean): Promise<void> {
    const sessions = this.oidcStore();
    const mine = await sessions.find({ model: 'Session', 'payload.accountId': userId });
    for (const session of mine) {
      if (!chosen(session)) continue;
      for (const authorization of Object.values(session.payload.authorizations ?? {})) {
        if (!authorization.grantId) continue;
        await sessions.deleteMany({ grantId: authorization.grantId });
        await sessions.deleteById(`Grant:${authorization.grantId}`); // the adapter's key: `{model}:{id}`
      }
      await sessions.deleteById(session._id);
    }
  }

  async deleteUser(userId: string): Promise<void> {
    await this.endSessions(userId);
    await this.users.delete(userId);
  }

  // ---- HTTP ----------------------------------------------------------------------------------------------

  /**
   * The provider as one Node request handler for everything under /oidc: its own pages (a small Express app, with the
   * same proxy trust as the API so rate limits see the client's address), then the OpenID endpoints of
   * `oidc-provider`, which read their own bodies.
   */
  handler(trustProxy: number): (request: IncomingMessage, response: ServerResponse) => void {
    const app = express();
    app.set('trust proxy', trustProxy);
    app.set('x-powered-by', false);
    app.set('etag', false);
    app.use('/oidc', this.router());
    app.use('/oidc', this.oidc.callback());
    return app;
  }

  /** Express routes for the provider's own pages; mounted before `provider.callback()`. */
  private router(): Router {
    const router = Router();
    signInRoutes(router, this.context);
    signUpRoutes(router, this.context);
    forgotPasswordRoutes(router, this.context);
    resetPasswordRoutes(router, this.context);
    confirmEmailRoutes(router, this.context);
    router.use(pageErrorHandler(this.context));
    return router;
  }
}
