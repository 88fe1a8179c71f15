import { saveReturnTo, takeReturnTo, clearStorage } from './storage';

/** What `GET /api/auth/config` announces: the issuer the client signs in with. */
export interface AuthConfig {
  authority: string;
  clientId: string;
  audience: string;
  scope: string;
  provider: 'built-in' | 'external';
}

/** The part of an oidc-client-ts `User` the session reads (a fake in tests, the real class in the browser). */
export interface TokenSet {
  access_token: string;
  id_token?: string | undefined;
  refresh_token?: string | undefined;
  /** Seconds since the epoch. */
  expires_at?: number | undefined;
  profile: { sub: string; [claim: string]: unknown };
}

/** The part of oidc-client-ts's `UserManager` the session uses. */
export interface UserManagerLike {
  getUser(): Promise<TokenSet | null>;
  signinRedirect(args?: { extraQueryParams?: Record<string, string>; ui_locales?: string }): Promise<void>;
  signinCallback(url?: string): Promise<TokenSet | undefined>;
  signinSilent(args?: { forceIframeAuth?: boolean }): Promise<TokenSet | null>;
  signoutRedirect(args?: { id_token_hint?: string; post_logout_redirect_uri?: string }): Promise<void>;
  removeUser(): Promise<void>;
  events: { addAccessTokenExpiring(callback: () => void): unknown };
}

export interface LocationLike {
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  replace(url: string): void;
}

export interface SessionDeps {
  loadConfig(): Promise<AuthConfig>;
  createUserManager(config: AuthConfig): Promise<UserManagerLike>;
  fetch: typeof fetch;
  location: LocationLike;
  local: Storage;
  session: Storage;
  /** Milliseconds since the epoch. */
  now(): number;
  /** The interface language, sent as ui_locales so the provider's pages speak it. */
  language(): string;
  /** Web Locks, so two tabs never spend the same rotating refresh token; absent in tests. */
  locks?: Pick<LockManager, 'request'> | undefined;
}

/** A cached access token counts as expired this many seconds early (spec §9). */
export const EXPIRY_MARGIN_SECONDS = 60;

export class SessionExpiredError extends Error {
  constructor() {
    super('Session expired');
    this.name = 'SessionExpiredError';
  }
}

export class AccountDeletedError extends Error {
  constructor() {
    super('ACCOUNT.DELETED');
    this.name = 'AccountDeletedError';
  }
}

export class SignupFailedError extends Error {
  constructor(readonly status: number) {
    super('Failed to complete signup');
    this.name = 'SignupFailedError';
  }
}

const RELOGIN_ERRORS = new Set([
  'login_required',
  'consent_required',
  'interaction_required',
  'invalid_grant',
  'session_expired',
]);

/** True when an error means the person has to sign in again (spec §4, "Token retrieval"). */
export function needsLogin(error: unknown): boolean {
  if (error instanceof SessionExpiredError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { error: code, message } = error as { error?: unknown; message?: unknown };
  if (typeof code === 'string' && RELOGIN_ERRORS.has(code)) return true;
  return typeof message === 'string' && /refresh[ _]token|session expired|login_required/i.test(message);
}

export function hasAuthParams(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('code') || params.has('state');
}

export type LoginResult =
  | { kind: 'silent' }
  | { kind: 'signed-in'; user: TokenSet; returnTo: string; reactivated: boolean; signupFailed: boolean };

/**
 * The session: authorization code + PKCE through oidc-client-ts against the issuer the server announces, refresh
 * tokens (silent renewal through the provider session as the fallback), one refresh at a time across calls and
 * tabs, sign-up after the callback and a logout that always reaches the login route.
 */
export class SessionManager {
  private managerPromise: Promise<UserManagerLike> | null = null;
  private refreshing: Promise<TokenSet> | null = null;
  private redirecting = false;
  private loggingOut = false;

  constructor(private readonly deps: SessionDeps) {}

  /** The oidc-client-ts manager, built once the configuration is known (retried on the next call on failure). */
  manager(): Promise<UserManagerLike> {
    if (!this.managerPromise) {
      this.managerPromise = this.deps
        .loadConfig()
        .then(async (config) => {
          const manager = await this.deps.createUserManager(config);
          manager.events.addAccessTokenExpiring(() => {
            this.getAccessToken().catch((error: unknown) => console.warn('Token renewal failed', error));
          });
          return manager;
        })
        .catch((error: unknown) => {
          this.managerPromise = null;
          throw error;
        });
    }
    return this.managerPromise;
  }

  expiresSoon(user: TokenSet): boolean {
    if (user.expires_at === undefined) return false;
    return user.expires_at - EXPIRY_MARGIN_SECONDS <= this.deps.now() / 1000;
  }

  /** At start: the stored session, renewed if its token is (almost) expired; null when there is none left. */
  async restore(): Promise<TokenSet | null> {
    const manager = await this.manager();
    const user = await manager.getUser();
    if (!user) return null;
    if (!this.expiresSoon(user)) return user;
    try {
      return await this.refresh(user.access_token);
    } catch (error) {
      if (!needsLogin(error)) console.warn('Session renewal failed', error);
      return null;
    }
  }

  /**
   * A valid access token. Not signed in: `Session expired`. A token that cannot be renewed because the person
   * must sign in again: the current path is saved, the sign-in redirect starts and the answer is null.
   */
  async getAccessToken(options: { forceRefresh?: boolean } = {}): Promise<string | null> {
    const manager = await this.manager();
    const user = await manager.getUser();
    if (!user) throw new SessionExpiredError();
    if (!options.forceRefresh && !this.expiresSoon(user)) return user.access_token;
    try {
      return (await this.refresh(user.access_token)).access_token;
    } catch (error) {
      if (!needsLogin(error)) throw error;
      await this.redirectToLogin();
      return null;
    }
  }

  /** One renewal at a time in this tab (and across tabs where Web Locks exist). */
  private refresh(staleToken: string): Promise<TokenSet> {
    if (!this.refreshing) {
      const run = () => this.renew(staleToken);
      const locked = this.deps.locks
        ? (this.deps.locks.request('kora-token-renewal', run) as Promise<TokenSet>)
        : run();
      this.refreshing = locked.finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private async renew(staleToken: string): Promise<TokenSet> {
    const manager = await this.manager();
    const current = await manager.getUser();
    if (!current) throw new SessionExpiredError();
    // Another tab, or a call that finished just before, may have renewed it already.
    if (current.access_token !== staleToken && !this.expiresSoon(current)) return current;
    let renewed: TokenSet | null;
    try {
      // With a refresh token, oidc-client-ts uses it; without one, it renews in a hidden frame.
      renewed = await manager.signinSilent();
    } catch (error) {
      if (!current.refresh_token || !needsLogin(error)) throw error;
      // The refresh token was refused: fall back to silent renewal through the provider's session.
      renewed = await manager.signinSilent({ forceIframeAuth: true });
    }
    if (!renewed) throw new SessionExpiredError();
    return renewed;
  }

  /**
   * The server ended this session (a logout or a password reset on another device, a deactivation): its tokens are
   * refused and cannot be renewed, so the page goes to sign-in at once, keeping where it was.
   */
  /**
   * This page is about to end the session itself (a deactivation, then its logout): the socket's word that it ended
   * is then its own, and the page's flow goes on instead of the sign-in redirect. `false` when the attempt failed.
   */
  endingHere(ending: boolean): void {
    this.loggingOut = ending;
  }

  async endedElsewhere(): Promise<void> {
    if (this.loggingOut) return;
    const manager = await this.manager();
    await manager.removeUser();
    await this.redirectToLogin();
  }

  /** Saves where to come back to and starts the sign-in redirect (skipped while the URL carries code or state). */
  async redirectToLogin(returnTo?: string): Promise<void> {
    const { location, session } = this.deps;
    saveReturnTo(session, returnTo ?? `${location.pathname}${location.search}${location.hash}`);
    if (hasAuthParams(location.search) || this.redirecting) return;
    this.redirecting = true;
    try {
      const manager = await this.manager();
      await manager.signinRedirect({
        // oidc-provider only issues a refresh token (offline_access) with prompt=consent; no screen is shown.
        extraQueryParams: { prompt: 'consent' },
        ui_locales: this.deps.language(),
      });
    } catch (error) {
      this.redirecting = false;
      throw error;
    }
  }

  /**
   * On /callback: exchanges the code, registers the account (`POST /api/auth/signup`), and tells where to go.
   * Inside the hidden renewal frame it only hands the answer to the parent window.
   */
  async completeLogin(): Promise<LoginResult> {
    const manager = await this.manager();
    const user = await manager.signinCallback(this.deps.location.href);
    if (!user) return { kind: 'silent' };
    let reactivated = false;
    let signupFailed = false;
    try {
      reactivated = (await this.signup(user.access_token)).reactivated;
    } catch (error) {
      if (error instanceof AccountDeletedError) {
        await manager.removeUser();
        throw error;
      }
      console.error(error);
      signupFailed = true;
    }
    return { kind: 'signed-in', user, returnTo: takeReturnTo(this.deps.session), reactivated, signupFailed };
  }

  private async signup(token: string): Promise<{ reactivated: boolean }> {
    const response = await this.deps.fetch('/api/auth/signup', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      credentials: 'include',
    });
    if (response.status === 410) throw new AccountDeletedError();
    if (!response.ok) throw new SignupFailedError(response.status);
    const body = (await response.json()) as { reactivated?: unknown };
    return { reactivated: body.reactivated === true };
  }

  /** A JSON GET with the bearer token (for the session's own reads, before the store's API is involved). */
  async getJson<T>(path: string): Promise<T> {
    const token = await this.getAccessToken();
    const response = await this.deps.fetch(path, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'include',
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  /**
   * Ends the server session, then the provider session, then lands on `redirectTo` (the login route by default).
   * Storage is cleared and the destination reached even when a call fails. The server ends this device's session
   * only, or with `everywhere` every session of the account (the other devices go to sign-in).
   */
  async logout(
    redirectTo: '/login' | '/' = '/login',
    { everywhere = false }: { everywhere?: boolean } = {},
  ): Promise<void> {
    this.loggingOut = true; // the socket's word that the session ended is this logout's own: it goes on
    const { local, session, location } = this.deps;
    const target = `${location.origin}${redirectTo}`;
    let manager: UserManagerLike | null = null;
    let idToken: string | undefined;
    try {
      manager = await this.manager();
      const user = await manager.getUser();
      idToken = user?.id_token;
      if (user) {
        await this.deps.fetch(everywhere ? '/api/auth/logout-everywhere' : '/api/auth/logout', {
          method: 'POST',
          headers: { Authorization: `Bearer ${user.access_token}` },
          credentials: 'include',
        });
      }
    } catch (error) {
      console.warn('Logout: the server session could not be ended', error);
    }
    try {
      await manager?.removeUser();
    } catch (error) {
      console.warn('Logout: the stored session could not be removed', error);
    }
    clearStorage(local, session);
    try {
      if (!manager || !idToken) throw new Error('No provider session to end');
      await manager.signoutRedirect({ id_token_hint: idToken, post_logout_redirect_uri: target });
    } catch (error) {
      console.warn('Logout: going to the login route directly', error);
      location.replace(target);
    }
  }
}
