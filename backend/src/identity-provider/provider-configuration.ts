import type { ReadStore } from '@kora/kernel';
import type { Configuration } from 'oidc-provider';
import type { Logger } from 'pino';
import { ACCESS_TOKEN_TTL_SECONDS } from '../auth/token-lifetimes';
import type { Config } from '../config/config';
import type { IdpStore } from './idp-store';
import type { OidcErrors } from './interactions/context';
import { oidcErrorPage } from './interactions/error-pages';
import { logoutPages } from './interactions/logout';
import { ReadStoreOidcAdapter } from './oidc-adapter';
import type { OidcKeys } from './oidc-keys';
import type { Pages } from './pages';

export const OIDC_SCOPES = 'openid profile email offline_access';

const DAY = 24 * 60 * 60;

export interface ConfigurationParts {
  config: Config;
  store: ReadStore;
  users: IdpStore;
  keys: OidcKeys;
  errors: OidcErrors;
  pages: Pages;
  logger: Logger;
  now: () => number;
}

/**
 * oidc-provider's configuration: one public client (the web client, authorization code with PKCE), refresh tokens,
 * JWT access tokens for the API audience, RP-initiated logout, storage in the read store, the interactions at
 * `/oidc/interaction/:uid` (the pages of `interactions/`).
 */
export function providerConfiguration({
  config,
  store,
  users,
  keys,
  errors,
  pages,
  logger,
  now,
}: ConfigurationParts): Configuration {
  const audience = config.oidc.audience;
  const clientId = config.oidc.clientId;
  const uris = redirectUris(config);
  return {
    adapter: (name: string) => new ReadStoreOidcAdapter(name, store, now),
    clients: [
      {
        client_id: clientId,
        client_name: 'Kora',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: uris.login,
        post_logout_redirect_uris: uris.logout,
      },
    ],
    jwks: { keys: keys.jwks as never },
    cookies: { keys: keys.cookieKeys, long: { signed: true }, short: { signed: true } },
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
      rpInitiatedLogout: { enabled: true, ...logoutPages(pages, config.publicUrl) },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resourceIndicator) => {
          if (resourceIndicator !== audience) throw new errors.InvalidTarget();
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
    formats: {
      customizers: {
        // The provider session's id in every access token, as `sid` (the session of the browser that signed in, kept
        // by its refresh tokens): a logout on one device ends that session's tokens at the API and leaves the
        // account's other devices signed in.
        jwt: async (_ctx, token, jwt) => {
          const { sessionUid } = token as { sessionUid?: unknown };
          if (typeof sessionUid === 'string') jwt.payload.sid = sessionUid;
        },
      },
    },
    renderError: oidcErrorPage(pages, logger),
  };
}

/** Where the web client may be sent back after sign-in and after logout: PUBLIC_URL and every WEB_ORIGIN. */
function redirectUris(config: Config): { login: string[]; logout: string[] } {
  const origins = [config.publicUrl, ...config.WEB_ORIGIN.map((origin) => origin.replace(/\/+$/, ''))];
  const unique = [...new Set(origins)];
  return {
    login: unique.map((origin) => `${origin}/callback`),
    logout: unique.flatMap((origin) => [`${origin}/login`, `${origin}/`]),
  };
}
