import { waitFor } from '@testing-library/react';
import { describe, expect, it, jest } from '@jest/globals';
import { fakeUserManager, tokens } from '../../test/fakes';
import {
  AccountDeletedError,
  EXPIRY_MARGIN_SECONDS,
  SessionExpiredError,
  SessionManager,
  type TokenSet,
} from './session';

const NOW = 1_800_000_000_000;

function setup({
  user = tokens({ expires_at: NOW / 1000 + 3600 }),
  search = '',
  pathname = '/accountSettings',
  fetchImpl,
}: {
  user?: TokenSet | null;
  search?: string;
  pathname?: string;
  fetchImpl?: typeof fetch;
} = {}) {
  const userManager = fakeUserManager(user);
  const replace = jest.fn();
  const fetchMock = jest.fn(
    fetchImpl ??
      (async () => new Response(JSON.stringify({ ok: true, registered: true, reactivated: false }), { status: 200 })),
  );
  const manager = new SessionManager({
    loadConfig: async () => ({
      authority: 'https://kora.test/oidc',
      clientId: 'kora-web',
      audience: 'https://kora.test/api',
      scope: 'openid profile email offline_access',
      provider: 'built-in',
    }),
    createUserManager: async () => userManager,
    fetch: fetchMock as unknown as typeof fetch,
    location: {
      href: `https://kora.test${pathname}${search}`,
      origin: 'https://kora.test',
      pathname,
      search,
      hash: '',
      replace,
    },
    local: localStorage,
    session: sessionStorage,
    now: () => NOW,
    language: () => 'fr',
  });
  return { manager, userManager, replace, fetchMock };
}

describe('the access token', () => {
  it('is the cached one while it is valid for more than 60 s', async () => {
    const { manager, userManager } = setup({ user: tokens({ expires_at: NOW / 1000 + EXPIRY_MARGIN_SECONDS + 1 }) });
    expect(await manager.getAccessToken()).toBe('access-1');
    expect(userManager.signinSilent).not.toHaveBeenCalled();
  });

  it('counts as expired 60 s early and is renewed (refresh token first)', async () => {
    const { manager, userManager } = setup({ user: tokens({ expires_at: NOW / 1000 + EXPIRY_MARGIN_SECONDS - 1 }) });
    userManager.signinSilent.mockResolvedValueOnce(tokens({ access_token: 'access-2' }));
    expect(await manager.getAccessToken()).toBe('access-2');
    expect(userManager.signinSilent).toHaveBeenCalledWith();
  });

  it('is renewed once for many simultaneous callers', async () => {
    const { manager, userManager } = setup({ user: tokens({ expires_at: NOW / 1000 }) });
    let release!: (user: TokenSet) => void;
    userManager.signinSilent.mockImplementationOnce(() => new Promise((resolve) => (release = resolve)));
    const calls = [manager.getAccessToken(), manager.getAccessToken(), manager.getAccessToken()];
    await waitFor(() => expect(userManager.signinSilent).toHaveBeenCalled());
    release(tokens({ access_token: 'access-2' }));
    expect(await Promise.all(calls)).toEqual(['access-2', 'access-2', 'access-2']);
    expect(userManager.signinSilent).toHaveBeenCalledTimes(1);
  });

  it('falls back to silent renewal through the provider when the refresh token is refused', async () => {
    const { manager, userManager } = setup();
    userManager.signinSilent
      .mockRejectedValueOnce(Object.assign(new Error('grant request is invalid'), { error: 'invalid_grant' }))
      .mockResolvedValueOnce(tokens({ access_token: 'access-3' }));
    expect(await manager.getAccessToken({ forceRefresh: true })).toBe('access-3');
    expect(userManager.signinSilent).toHaveBeenLastCalledWith({ forceIframeAuth: true });
  });

  it('saves the path and starts the sign-in when the person must sign in again', async () => {
    const { manager, userManager } = setup({ search: '?section=security' });
    userManager.signinSilent
      .mockRejectedValueOnce(Object.assign(new Error('invalid_grant'), { error: 'invalid_grant' }))
      .mockRejectedValueOnce(Object.assign(new Error('login_required'), { error: 'login_required' }));
    expect(await manager.getAccessToken({ forceRefresh: true })).toBeNull();
    expect(sessionStorage.getItem('returnTo')).toBe('/accountSettings?section=security');
    expect(userManager.signinRedirect).toHaveBeenCalledWith({
      extraQueryParams: { prompt: 'consent' },
      ui_locales: 'fr',
    });
  });

  it('is "Session expired" when nobody is signed in', async () => {
    const { manager } = setup({ user: null });
    await expect(manager.getAccessToken()).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(manager.getAccessToken()).rejects.toThrow('Session expired');
  });

  it('lets other failures (the network) through without sending the person to sign in', async () => {
    const { manager, userManager } = setup({ user: tokens({ expires_at: NOW / 1000 }) });
    userManager.signinSilent.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(manager.getAccessToken()).rejects.toThrow('Failed to fetch');
    expect(userManager.signinRedirect).not.toHaveBeenCalled();
  });
});

describe('signing in', () => {
  it('is skipped while the address carries a code or a state', async () => {
    const { manager, userManager } = setup({ search: '?code=abc&state=xyz', pathname: '/dashboard' });
    await manager.redirectToLogin();
    expect(userManager.signinRedirect).not.toHaveBeenCalled();
  });

  it('never saves /login or /callback as the return destination', async () => {
    const { manager, userManager } = setup({ pathname: '/login' });
    sessionStorage.setItem('returnTo', '/dashboard?service=STEM_SEPARATION');
    await manager.redirectToLogin();
    expect(sessionStorage.getItem('returnTo')).toBe('/dashboard?service=STEM_SEPARATION');
    expect(userManager.signinRedirect).toHaveBeenCalledTimes(1);
  });

  it('completes on /callback: signs up with the bearer token, returns to the saved page and clears it', async () => {
    const { manager, fetchMock } = setup({ pathname: '/callback', search: '?code=abc&state=xyz' });
    sessionStorage.setItem('returnTo', '/accountSettings?section=general');
    const result = await manager.completeLogin();
    expect(result).toMatchObject({
      kind: 'signed-in',
      returnTo: '/accountSettings?section=general',
      reactivated: false,
    });
    expect(sessionStorage.getItem('returnTo')).toBeNull();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/signup');
    expect(init).toMatchObject({ method: 'POST', headers: { Authorization: 'Bearer access-1' } });
  });

  it('returns home by default and reports a restored account', async () => {
    const { manager } = setup({
      fetchImpl: async () => new Response(JSON.stringify({ ok: true, registered: false, reactivated: true })),
    });
    expect(await manager.completeLogin()).toMatchObject({ returnTo: '/', reactivated: true, signupFailed: false });
  });

  it('drops the session when the account is gone (410)', async () => {
    const { manager, userManager } = setup({
      fetchImpl: async () => new Response(JSON.stringify({ code: 'ACCOUNT.DELETED' }), { status: 410 }),
    });
    await expect(manager.completeLogin()).rejects.toBeInstanceOf(AccountDeletedError);
    expect(userManager.removeUser).toHaveBeenCalled();
  });

  it('goes on when sign-up fails otherwise, and says so', async () => {
    const { manager } = setup({ fetchImpl: async () => new Response('{}', { status: 500 }) });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await manager.completeLogin()).toMatchObject({ kind: 'signed-in', signupFailed: true });
  });

  it('only hands the answer to the parent window in the hidden renewal frame', async () => {
    const { manager, userManager, fetchMock } = setup();
    userManager.signinCallback.mockResolvedValueOnce(undefined);
    expect(await manager.completeLogin()).toEqual({ kind: 'silent' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('a session ended elsewhere', () => {
  it('goes straight to sign-in, keeping the page, without trying to renew what the server ended', async () => {
    const { manager, userManager } = setup({ pathname: '/dashboard', search: '?track=t-1' });
    await manager.endedElsewhere();
    expect(userManager.removeUser).toHaveBeenCalled();
    expect(userManager.signinSilent).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('returnTo')).toBe('/dashboard?track=t-1');
    expect(userManager.signinRedirect).toHaveBeenCalledWith({
      extraQueryParams: { prompt: 'consent' },
      ui_locales: 'fr',
    });
  });
});

describe('a session ended elsewhere, while this page logs out', () => {
  it('is left to the logout', async () => {
    const { manager, userManager } = setup();
    const logout = manager.logout();
    await manager.endedElsewhere();
    await logout;
    expect(userManager.signinRedirect).not.toHaveBeenCalled();
    expect(userManager.signoutRedirect).toHaveBeenCalled();
  });
});

describe('logging out', () => {
  it('ends the server session, clears storage (but the theme and language) and ends the provider session', async () => {
    const { manager, userManager, fetchMock } = setup();
    localStorage.setItem('theme', 'light');
    localStorage.setItem('language', 'fr');
    localStorage.setItem('selectedService', 'STEM_SEPARATION');
    sessionStorage.setItem('appState', '{}');
    await manager.logout();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/logout',
      expect.objectContaining({ method: 'POST', headers: { Authorization: 'Bearer access-1' } }),
    );
    expect(userManager.signoutRedirect).toHaveBeenCalledWith({
      id_token_hint: 'id-1',
      post_logout_redirect_uri: 'https://kora.test/login',
    });
    expect(localStorage.getItem('selectedService')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('theme')).toBe('light');
    expect(localStorage.getItem('language')).toBe('fr');
  });

  it('still clears storage and reaches the login route when every call fails', async () => {
    const { manager, userManager, replace } = setup({
      fetchImpl: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    userManager.signoutRedirect.mockRejectedValueOnce(new Error('metadata unavailable'));
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    localStorage.setItem('selectedService', 'AI_MASTERING');
    await manager.logout();
    expect(localStorage.getItem('selectedService')).toBeNull();
    expect(replace).toHaveBeenCalledWith('https://kora.test/login');
  });

  it('asks the server to end every session of the account when signing out everywhere', async () => {
    const { manager, userManager, fetchMock } = setup();
    await manager.logout('/login', { everywhere: true });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/logout-everywhere',
      expect.objectContaining({ method: 'POST', headers: { Authorization: 'Bearer access-1' } }),
    );
    expect(fetchMock).not.toHaveBeenCalledWith('/api/auth/logout', expect.anything());
    expect(userManager.signoutRedirect).toHaveBeenCalled();
  });

  it('can land on / after a deactivation', async () => {
    const { manager, userManager } = setup();
    await manager.logout('/');
    expect(userManager.signoutRedirect).toHaveBeenCalledWith(
      expect.objectContaining({ post_logout_redirect_uri: 'https://kora.test/' }),
    );
  });
});
