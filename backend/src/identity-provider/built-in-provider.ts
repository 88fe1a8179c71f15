import { AfterResponse, type Language, IdentityProvider, type ProviderProfile } from '@kora/identity';
import { type Mailer, type RateLimit, RateLimiter, type ReadStore } from '@kora/kernel';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { importJWK, SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Configuration, KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { Logger } from 'pino';
import { ACCESS_TOKEN_TTL_SECONDS, LONGEST_ACCESS_TOKEN_SECONDS } from '../auth/token-lifetimes';
import type { Config } from '../config/config';
import { EMAIL, IdpStore, normaliseEmail, PASSWORD_MAX, PASSWORD_MIN } from './idp-store';
import { IDP_STRINGS, type IdpLanguage, fill, pickLanguage } from './locales';
import { DEVICE_COOKIE, DeviceCookies, LoginThrottle, waitInWords } from './login-throttle';
import { emailVerificationMail, passwordResetMail, signUpAttemptMail } from './mails';
import { ReadStoreOidcAdapter, sweepExpired } from './oidc-adapter';
import { loadOrCreateKeys, type OidcKeys, publicJwks } from './oidc-keys';
import { alert, escapeHtml, field, form, links, page } from './pages';
import { pinPublicOrigin } from './public-origin';

let oidc: typeof import('oidc-provider');

const LANG_COOKIE = 'kora_lang';
const RESET_TTL_SECONDS = 60 * 60;
const VERIFY_TTL_SECONDS = 24 * 60 * 60;
const DAY = 24 * 60 * 60;

/** Sign-up and reset requests per client address and per account (sign-in has its own: `LOGIN_THROTTLE`). */
export const LIMITS = {
  signupPerAddress: { limit: 10, windowSeconds: 60 * 60 },
  resetPerAddress: { limit: 10, windowSeconds: 60 * 60 },
  resetPerAccount: { limit: 3, windowSeconds: 60 * 60 },
} as const;

export const OIDC_SCOPES = 'openid profile email offline_access';

/**
 * The built-in OpenID Connect provider (oidc-provider) mounted at /oidc: authorization code with PKCE for the web
 * client, refresh tokens, JWT access tokens for the API audience, RP-initiated logout, and its own pages in English
 * and French: sign in, create an account, forgot password, reset password, confirm e-mail.
 */
export class BuiltInIdentityProvider extends IdentityProvider {
  readonly kind = 'built-in' as const;
  readonly issuer: string;
  private provider!: Provider;
  private keys!: OidcKeys;
  private sweeper: NodeJS.Timeout | null = null;
  readonly users: IdpStore;
  private readonly limits: RateLimiter;
  private readonly throttle: LoginThrottle;
  private deviceCookies: DeviceCookies | null = null;
  /** Mails and tokens whose existence depends on the address: done after the answer, so it never tells. */
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
    this.limits = new RateLimiter(store, now);
    this.throttle = new LoginThrottle(store, now);
  }

  async init(): Promise<void> {
    await this.users.ensureIndexes();
    await this.store.ensureIndexes('_oidc', [{ fields: { grantId: 1 } }, { fields: { model: 1, uid: 1 } }]);
    this.keys = await loadOrCreateKeys(this.store);
    // Loaded here rather than at the top: oidc-provider is ESM-only, and it warns about Node 20 on load, which
    // should come after the configuration has been validated (and not at all with an external issuer).
    oidc = await import('oidc-provider');
    this.provider = new oidc.Provider(this.issuer, this.configuration());
    this.provider.proxy = this.config.TRUST_PROXY > 0;
    // Discovery's endpoints and the cookies' Secure flag follow PUBLIC_URL, never the request's Host or scheme.
    pinPublicOrigin(this.provider, this.config.publicUrl);
    this.provider.on('server_error', (_ctx, error) => this.logger.error({ err: error }, 'oidc server error'));
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

  private get devices(): DeviceCookies {
    this.deviceCookies ??= new DeviceCookies(this.keys.cookieKeys[0]!);
    return this.deviceCookies;
  }

  /**
   * An access token for the API, shaped like the ones the token endpoint issues (for `npm run users -- token`:
   * scripts and support). The provider's own flows never use it.
   */
  async signAccessToken(userId: string, minutes: number, clientId: string, audience: string): Promise<string> {
    const jwk = this.keys.jwks[0]!;
    return new SignJWT({ scope: 'api', client_id: clientId })
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

  private get redirectUris(): { login: string[]; logout: string[] } {
    const origins = [this.config.publicUrl, ...this.config.WEB_ORIGIN.map((origin) => origin.replace(/\/+$/, ''))];
    const unique = [...new Set(origins)];
    return {
      login: unique.map((origin) => `${origin}/callback`),
      logout: unique.flatMap((origin) => [`${origin}/login`, `${origin}/`]),
    };
  }

  private configuration(): Configuration {
    const audience = this.config.oidc.audience;
    const clientId = this.config.oidc.clientId;
    const store = this.store;
    const users = this.users;
    const renderPage = this.renderPage.bind(this);
    return {
      adapter: (name: string) => new ReadStoreOidcAdapter(name, store, this.now),
      clients: [
        {
          client_id: clientId,
          client_name: 'Kora',
          application_type: 'web',
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          redirect_uris: this.redirectUris.login,
          post_logout_redirect_uris: this.redirectUris.logout,
        },
      ],
      jwks: { keys: this.keys.jwks as never },
      cookies: { keys: this.keys.cookieKeys, long: { signed: true }, short: { signed: true } },
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'given_name', 'family_name', 'locale'],
      },
      pkce: { required: () => true },
      // The ID token carries the granted claims (e-mail, names): the access token is for the API, so the client
      // cannot use it at the provider's UserInfo endpoint.
      conformIdTokenClaims: false,
      features: {
        devInteractions: { enabled: false },
        revocation: { enabled: true },
        userinfo: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: async (ctx: KoaContextWithOIDC, formHtml: string) => {
            const language = this.languageOf(ctx.get('accept-language'), ctx.cookies.get(LANG_COOKIE));
            const t = IDP_STRINGS[language];
            ctx.type = 'html';
            ctx.body = renderPage(ctx, {
              language,
              title: t.logout.title,
              body: `${formHtml.replace('<form', '<form hidden')}<noscript><form method="post" action="${escapeHtml(
                ctx.oidc.urlFor('end_session_confirm'),
              )}"><input type="hidden" name="xsrf" value="${escapeHtml(
                /name="xsrf" value="([^"]+)"/.exec(formHtml)?.[1] ?? '',
              )}"><input type="hidden" name="logout" value="yes"><button>${t.logout.continue}</button></form></noscript>`,
              autoSubmit: true,
            });
          },
          postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
            const language = this.languageOf(ctx.get('accept-language'), ctx.cookies.get(LANG_COOKIE));
            const t = IDP_STRINGS[language];
            ctx.type = 'html';
            ctx.body = renderPage(ctx, {
              language,
              title: t.logout.done,
              body: links([{ href: `${this.config.publicUrl}/login`, text: t.logout.again }]),
            });
          },
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => audience,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx, resourceIndicator) => {
            if (resourceIndicator !== audience) throw new oidc.errors.InvalidTarget();
            return {
              scope: 'api',
              audience,
              accessTokenFormat: 'jwt',
              accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
      },
      // The web client is first-party: it gets what it asks for without a consent screen.
      loadExistingGrant: async (ctx) => {
        const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        if (ctx.oidc.client!.clientId !== clientId || !ctx.oidc.session!.accountId) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId });
        grant.addOIDCScope(OIDC_SCOPES);
        grant.addResourceScope(audience, 'api');
        await grant.save();
        return grant;
      },
      findAccount: async (_ctx, sub) => {
        const user = await users.findById(sub);
        if (!user) return undefined;
        return {
          accountId: sub,
          claims: async () => ({
            sub,
            email: user.email,
            email_verified: user.emailVerified,
            given_name: user.givenName,
            family_name: user.familyName,
            name: `${user.givenName} ${user.familyName}`.trim(),
            locale: user.locale,
          }),
        };
      },
      interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
      ttl: {
        AccessToken: ACCESS_TOKEN_TTL_SECONDS,
        AuthorizationCode: 60,
        IdToken: 60 * 60,
        Interaction: 60 * 60,
        Session: 14 * DAY,
        Grant: 30 * DAY,
        RefreshToken: 30 * DAY,
      },
      rotateRefreshToken: true,
      renderError: async (ctx, out, error) => {
        this.logger.warn({ err: error, out }, 'oidc error page');
        const language = this.languageOf(ctx.get('accept-language'), ctx.cookies.get(LANG_COOKIE));
        const t = IDP_STRINGS[language];
        ctx.type = 'html';
        ctx.body = renderPage(ctx, {
          language,
          title: t.errors.generic,
          body: `<p>${escapeHtml(String(out.error_description ?? out.error ?? ''))}</p>${links([
            { href: `${this.config.publicUrl}/login`, text: t.reset.toApp },
          ])}`,
        });
      },
    };
  }

  /** Renders a page with a fresh CSP nonce for its inline style and script. */
  private renderPage(target: KoaContextWithOIDC | Response, options: Parameters<typeof page>[0]): string {
    const nonce = randomBytes(16).toString('base64');
    const csp = `default-src 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self' ${[
      this.config.publicUrl,
      ...this.config.WEB_ORIGIN,
    ].join(' ')}; frame-ancestors 'none'; base-uri 'none'`;
    if ('set' in target && typeof (target as KoaContextWithOIDC).set === 'function' && 'oidc' in target) {
      (target as KoaContextWithOIDC).set('Content-Security-Policy', csp);
    } else {
      (target as Response).setHeader('Content-Security-Policy', csp);
    }
    return page(options).replaceAll('__NONCE__', nonce);
  }

  private languageOf(acceptLanguage: string | undefined, cookie: string | undefined, uiLocales?: unknown): IdpLanguage {
    return pickLanguage(typeof uiLocales === 'string' ? uiLocales : undefined, cookie, acceptLanguage);
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

  async requestPasswordReset(email: string, language: Language): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    if ((await this.limits.hit(`reset:account:${user._id}`, LIMITS.resetPerAccount)) > 0) return;
    const token = await this.users.issueToken(user._id, 'password-reset', RESET_TTL_SECONDS);
    const link = `${this.issuer}/reset/${token}?lang=${language}`;
    await this.mailer.send(passwordResetMail(user.email, language, user.givenName, link));
  }

  async endSessions(userId: string): Promise<void> {
    const sessions = this.store.collection<{
      _id: string;
      payload: { accountId?: string; authorizations?: Record<string, { grantId?: string }> };
    }>('_oidc');
    const mine = await sessions.find({ model: 'Session', 'payload.accountId': userId });
    for (const session of mine) {
      for (const authorization of Object.values(session.payload.authorizations ?? {})) {
        if (authorization.grantId) await sessions.deleteMany({ grantId: authorization.grantId });
      }
      await sessions.deleteById(session._id);
    }
    await sessions.deleteMany({ model: 'Grant', 'payload.accountId': userId });
  }

  async deleteUser(userId: string): Promise<void> {
    await this.endSessions(userId);
    await this.users.delete(userId);
  }

  // ---- Pages ---------------------------------------------------------------------------------------------

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
    const body = express.urlencoded({ extended: false, limit: '16kb' });
    const wrap =
      (handler: (req: Request, res: Response) => Promise<void>) =>
      (req: Request, res: Response, next: NextFunction): void => {
        handler(req, res).catch(next);
      };

    router.get(
      '/interaction/:uid',
      wrap((req, res) => this.interaction(req, res)),
    );
    router.post(
      '/interaction/:uid/login',
      body,
      wrap((req, res) => this.login(req, res)),
    );
    router.get(
      '/interaction/:uid/signup',
      wrap((req, res) => this.signupPage(req, res, {})),
    );
    router.post(
      '/interaction/:uid/signup',
      body,
      wrap((req, res) => this.signup(req, res)),
    );
    router.get(
      '/interaction/:uid/forgot',
      wrap((req, res) => this.forgotPage(req, res, {})),
    );
    router.post(
      '/interaction/:uid/forgot',
      body,
      wrap((req, res) => this.forgot(req, res)),
    );
    router.get(
      '/reset/:token',
      wrap((req, res) => this.resetPage(req, res, {})),
    );
    router.post(
      '/reset/:token',
      body,
      wrap((req, res) => this.reset(req, res)),
    );
    router.get(
      '/verify/:token',
      wrap((req, res) => this.verify(req, res)),
    );
    router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) return next(error);
      const language = this.requestLanguage(req);
      const t = IDP_STRINGS[language];
      const expired = error instanceof oidc.errors.SessionNotFound || error instanceof oidc.errors.InvalidRequest;
      if (!expired) this.logger.error({ err: error }, 'identity page failed');
      res
        .status(expired ? 400 : 500)
        .type('html')
        .send(
          this.renderPage(res, {
            language,
            title: expired ? t.errors.session : t.errors.generic,
            body: links([{ href: `${this.config.publicUrl}/login`, text: t.reset.toApp }]),
          }),
        );
    });
    return router;
  }

  private requestLanguage(req: Request, uiLocales?: unknown): IdpLanguage {
    const chosen = typeof req.query.lang === 'string' ? req.query.lang : undefined;
    return pickLanguage(
      chosen,
      typeof uiLocales === 'string' ? uiLocales : undefined,
      req.cookies?.[LANG_COOKIE] ?? cookie(req, LANG_COOKIE),
      req.get('accept-language'),
    );
  }

  /** Remembers an explicit language choice (?lang=) for the next pages. */
  private rememberLanguage(req: Request, res: Response): void {
    if (req.query.lang === 'en' || req.query.lang === 'fr') {
      res.cookie(LANG_COOKIE, req.query.lang, {
        path: '/oidc',
        sameSite: 'lax',
        secure: this.config.secureCookies,
        maxAge: 365 * DAY * 1000,
        httpOnly: true,
      });
    }
  }

  private switchHref(req: Request, language: IdpLanguage): string {
    return `${req.baseUrl}${req.path}?lang=${language === 'fr' ? 'en' : 'fr'}`;
  }

  private html(
    res: Response,
    status: number,
    language: IdpLanguage,
    title: string,
    bodyHtml: string,
    switchHref?: string,
  ): void {
    res.status(status).type('html').setHeader('Cache-Control', 'no-store');
    res.send(this.renderPage(res, { language, title, body: bodyHtml, ...(switchHref ? { switchHref } : {}) }));
  }

  private async interaction(req: Request, res: Response): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    if (details.prompt.name === 'consent') {
      await this.grantConsent(req, res, details);
      return;
    }
    this.rememberLanguage(req, res);
    this.loginPage(req, res, details.uid, details.params.ui_locales, {});
  }

  private loginPage(
    req: Request,
    res: Response,
    uid: string,
    uiLocales: unknown,
    state: { email?: string; error?: string; notice?: string },
    status = 200,
  ): void {
    const language = this.requestLanguage(req, uiLocales);
    const t = IDP_STRINGS[language];
    const base = `/oidc/interaction/${uid}`;
    this.html(
      res,
      status,
      language,
      t.signIn.title,
      alert(state.error) +
        alert(state.notice, 'notice') +
        form(
          `${base}/login`,
          field({
            name: 'email',
            label: t.email,
            type: 'email',
            autocomplete: 'email',
            value: state.email ?? '',
            autofocus: !state.email,
          }) +
            field({
              name: 'password',
              label: t.password,
              type: 'password',
              autocomplete: 'current-password',
              autofocus: Boolean(state.email),
            }),
          t.signIn.submit,
        ) +
        links([
          { href: `${base}/forgot`, text: t.signIn.forgot },
          { href: `${base}/signup`, text: t.signIn.create, prefix: t.signIn.noAccount },
        ]),
      `${base}?lang=${language === 'fr' ? 'en' : 'fr'}`,
    );
  }

  private async grantConsent(
    req: Request,
    res: Response,
    details: Awaited<ReturnType<Provider['interactionDetails']>>,
  ): Promise<void> {
    const { params, session, prompt } = details;
    if (params.client_id !== this.config.oidc.clientId || !session?.accountId) throw new oidc.errors.AccessDenied();
    const grant = details.grantId
      ? ((await this.provider.Grant.find(details.grantId)) ??
        new this.provider.Grant({ accountId: session.accountId, clientId: params.client_id as string }))
      : new this.provider.Grant({ accountId: session.accountId, clientId: params.client_id as string });
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await this.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  private async throttled(keys: Array<[string, RateLimit]>): Promise<number> {
    let wait = 0;
    for (const [key, limit] of keys) wait = Math.max(wait, await this.limits.hit(key, limit));
    return wait;
  }

  /** The text of a 429, with `Retry-After` set on the response. */
  private tooMany(res: Response, language: IdpLanguage, seconds: number): string {
    res.setHeader('Retry-After', String(seconds));
    return fill(IDP_STRINGS[language].errors.tooMany, { wait: waitInWords(seconds, language) });
  }

  /**
   * Sign-in, throttled by progressive delays (`LOGIN_THROTTLE`) rather than lockouts: a too-early attempt gets 429
   * with Retry-After and the password is not even looked at; the right password gets in once the delay is over.
   */
  private async login(req: Request, res: Response): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    const language = this.requestLanguage(req, details.params.ui_locales);
    const t = IDP_STRINGS[language];
    const email = typeof req.body.email === 'string' ? normaliseEmail(req.body.email) : '';
    const password = typeof req.body.password === 'string' ? req.body.password : '';
    const device = this.devices.nonceFor(cookie(req, DEVICE_COOKIE), email);
    const answer = await this.throttle.begin(email, req.ip ?? 'unknown', device);
    if (!answer.attempt) {
      const error = this.tooMany(res, language, answer.wait);
      this.loginPage(req, res, details.uid, details.params.ui_locales, { email, error }, 429);
      return;
    }
    const user = email && password ? await this.users.verifyPassword(email, password) : null;
    if (!user) {
      this.loginPage(req, res, details.uid, details.params.ui_locales, { email, error: t.signIn.invalid }, 401);
      return;
    }
    await answer.attempt.succeeded();
    // This browser is now trusted for this account: strangers' failures no longer slow it down.
    res.cookie(DEVICE_COOKIE, device ? cookie(req, DEVICE_COOKIE) : this.devices.issue(email), {
      path: '/oidc',
      sameSite: 'lax',
      secure: this.config.secureCookies,
      maxAge: 365 * DAY * 1000,
      httpOnly: true,
    });
    await this.provider.interactionFinished(
      req,
      res,
      { login: { accountId: user._id, remember: true } },
      { mergeWithLastSubmission: false },
    );
  }

  private async signupPage(
    req: Request,
    res: Response,
    state: { values?: Record<string, string>; errors?: Record<string, string>; error?: string },
    status = 200,
  ): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    this.rememberLanguage(req, res);
    const language = this.requestLanguage(req, details.params.ui_locales);
    const t = IDP_STRINGS[language];
    const base = `/oidc/interaction/${details.uid}`;
    const v = state.values ?? {};
    const e = state.errors ?? {};
    this.html(
      res,
      status,
      language,
      t.signUp.title,
      alert(state.error) +
        form(
          `${base}/signup`,
          `<div class="row"><div>${field({ name: 'firstName', label: t.firstName, type: 'text', autocomplete: 'given-name', value: v.firstName ?? '', error: e.firstName, autofocus: true })}</div><div>${field({ name: 'lastName', label: t.lastName, type: 'text', autocomplete: 'family-name', value: v.lastName ?? '', error: e.lastName })}</div></div>` +
            field({
              name: 'email',
              label: t.email,
              type: 'email',
              autocomplete: 'email',
              value: v.email ?? '',
              error: e.email,
            }) +
            field({
              name: 'password',
              label: t.password,
              type: 'password',
              autocomplete: 'new-password',
              hint: t.passwordHint,
              error: e.password,
            }),
          t.signUp.submit,
        ) +
        links([{ href: base, text: t.signUp.signIn, prefix: t.signUp.haveAccount }]),
      this.switchHref(req, language),
    );
  }

  /**
   * Creates an account, or rather asks the address to confirm it: the answer (a "check your e-mail" page) and its
   * timing are the same whether or not the address already has an account, so it tells nothing. A new address gets
   * the link that creates the account; the owner of a known one gets a warning with a reset link instead.
   */
  private async signup(req: Request, res: Response): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    const language = this.requestLanguage(req, details.params.ui_locales);
    const t = IDP_STRINGS[language];
    const values = {
      firstName: String(req.body.firstName ?? '').trim(),
      lastName: String(req.body.lastName ?? '').trim(),
      email: normaliseEmail(String(req.body.email ?? '')),
    };
    const password = String(req.body.password ?? '');
    const fieldErrors: Record<string, string> = {};
    if (!values.firstName) fieldErrors.firstName = t.errors.required;
    if (!values.lastName) fieldErrors.lastName = t.errors.required;
    if (!EMAIL.test(values.email)) fieldErrors.email = t.errors.email;
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
      fieldErrors.password = t.errors.passwordLength;
    if (Object.keys(fieldErrors).length > 0) return this.signupPage(req, res, { values, errors: fieldErrors }, 400);
    const wait = await this.throttled([[`signup:ip:${req.ip ?? 'unknown'}`, LIMITS.signupPerAddress]]);
    if (wait > 0) return this.signupPage(req, res, { values, error: this.tooMany(res, language, wait) }, 429);
    // Both paths hash the password and look the address up before answering; the rest happens after.
    const passwordHash = await this.users.hashPassword(password);
    const existing = await this.users.findByEmail(values.email);
    if (existing) {
      this.afterAnswer.run('sign-up attempt warning', async () => {
        if ((await this.limits.hit(`reset:account:${existing._id}`, LIMITS.resetPerAccount)) > 0) return;
        const token = await this.users.issueToken(existing._id, 'password-reset', RESET_TTL_SECONDS);
        const link = `${this.issuer}/reset/${token}?lang=${existing.locale}`;
        await this.mailer.send(signUpAttemptMail(existing.email, existing.locale, existing.givenName, link));
      });
    } else {
      this.afterAnswer.run('sign-up confirmation', async () => {
        const token = await this.users.issueSignUpToken(
          {
            email: values.email,
            passwordHash,
            givenName: values.firstName,
            familyName: values.lastName,
            locale: language,
          },
          VERIFY_TTL_SECONDS,
        );
        const link = `${this.issuer}/verify/${token}?lang=${language}`;
        await this.mailer.send(emailVerificationMail(values.email, language, values.firstName, link));
      });
    }
    this.html(
      res,
      200,
      language,
      t.signUp.checkTitle,
      alert(fill(t.signUp.sent, { email: values.email }), 'notice') +
        links([{ href: `/oidc/interaction/${details.uid}`, text: t.signUp.signIn, prefix: t.signUp.haveAccount }]),
    );
  }

  private async forgotPage(
    req: Request,
    res: Response,
    state: { email?: string; notice?: string; error?: string },
    status = 200,
  ): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    this.rememberLanguage(req, res);
    const language = this.requestLanguage(req, details.params.ui_locales);
    const t = IDP_STRINGS[language];
    const base = `/oidc/interaction/${details.uid}`;
    this.html(
      res,
      status,
      language,
      t.forgot.title,
      alert(state.error) +
        alert(state.notice, 'notice') +
        (state.notice
          ? ''
          : `<p>${escapeHtml(t.forgot.intro)}</p>` +
            form(
              `${base}/forgot`,
              field({
                name: 'email',
                label: t.email,
                type: 'email',
                autocomplete: 'email',
                value: state.email ?? '',
                autofocus: true,
              }),
              t.forgot.submit,
            )) +
        links([{ href: base, text: t.forgot.back }]),
      this.switchHref(req, language),
    );
  }

  private async forgot(req: Request, res: Response): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    const language = this.requestLanguage(req, details.params.ui_locales);
    const t = IDP_STRINGS[language];
    const email = normaliseEmail(String(req.body.email ?? ''));
    if (!EMAIL.test(email)) return this.forgotPage(req, res, { email, error: t.errors.email }, 400);
    const wait = await this.throttled([[`reset:ip:${req.ip ?? 'unknown'}`, LIMITS.resetPerAddress]]);
    if (wait > 0) return this.forgotPage(req, res, { email, error: this.tooMany(res, language, wait) }, 429);
    // After the answer, so that neither it nor its timing tells whether the address has an account.
    this.afterAnswer.run('password reset request', () => this.requestPasswordReset(email, language));
    await this.forgotPage(req, res, { notice: fill(t.forgot.sent, { email }) });
  }

  private async resetPage(req: Request, res: Response, state: { error?: string }, status = 200): Promise<void> {
    this.rememberLanguage(req, res);
    const language = this.requestLanguage(req);
    const t = IDP_STRINGS[language];
    const token = String(req.params.token);
    if (!(await this.users.peekToken(token, 'password-reset'))) {
      return this.html(
        res,
        410,
        language,
        t.reset.title,
        alert(t.reset.expired) + links([{ href: `${this.config.publicUrl}/login`, text: t.reset.toApp }]),
      );
    }
    this.html(
      res,
      status,
      language,
      t.reset.title,
      alert(state.error) +
        form(
          `${req.baseUrl}/reset/${encodeURIComponent(token)}`,
          field({
            name: 'password',
            label: t.newPassword,
            type: 'password',
            autocomplete: 'new-password',
            hint: t.passwordHint,
            autofocus: true,
          }) + field({ name: 'confirm', label: t.confirmPassword, type: 'password', autocomplete: 'new-password' }),
          t.reset.submit,
        ),
      this.switchHref(req, language),
    );
  }

  private async reset(req: Request, res: Response): Promise<void> {
    const language = this.requestLanguage(req);
    const t = IDP_STRINGS[language];
    const password = String(req.body.password ?? '');
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
      return this.resetPage(req, res, { error: t.errors.passwordLength }, 400);
    if (password !== String(req.body.confirm ?? '')) return this.resetPage(req, res, { error: t.reset.mismatch }, 400);
    const userId = await this.users.consumeToken(String(req.params.token), 'password-reset');
    if (!userId) {
      return this.html(
        res,
        410,
        language,
        t.reset.title,
        alert(t.reset.expired) + links([{ href: `${this.config.publicUrl}/login`, text: t.reset.toApp }]),
      );
    }
    await this.users.setPassword(userId, password);
    // A reset signs every device out: the provider's sessions and refresh tokens, then (the accounts module) every
    // access token issued so far, before the answer.
    await this.endSessions(userId);
    await this.onPasswordReset?.(userId);
    this.html(
      res,
      200,
      language,
      t.reset.title,
      alert(t.reset.done, 'notice') + links([{ href: `${this.config.publicUrl}/login`, text: t.reset.toApp }]),
    );
  }

  private async verify(req: Request, res: Response): Promise<void> {
    this.rememberLanguage(req, res);
    const language = this.requestLanguage(req);
    const t = IDP_STRINGS[language];
    const signUp = await this.users.completeSignUp(String(req.params.token));
    if (signUp) {
      const signIn = links([{ href: `${this.config.publicUrl}/login`, text: t.verify.signIn }]);
      if ('taken' in signUp) return this.html(res, 200, language, t.verify.taken, signIn);
      return this.html(res, 200, language, t.verify.created, signIn);
    }
    // A link mailed before sign-ups waited for their confirmation: it confirms an existing user's address.
    const userId = await this.users.consumeToken(String(req.params.token), 'email-verification');
    if (userId) await this.users.markEmailVerified(userId);
    this.html(
      res,
      userId ? 200 : 410,
      language,
      userId ? t.verify.done : t.verify.expired,
      links([{ href: `${this.config.publicUrl}/`, text: t.reset.toApp }]),
    );
  }
}

/** Reads one cookie without a cookie parser. */
function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}
