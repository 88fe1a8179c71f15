import type { LoudnessFacts } from '@kora/contracts';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { jest } from '@jest/globals';
import { makeStore } from '../app/store';
import type { TokenSource } from '../lib/api';
import { SessionManager, type TokenSet, type UserManagerLike } from '../lib/session/session';
import { SessionProvider } from '../lib/session/SessionProvider';
import { sessionResolved } from '../lib/session/slice';

export interface Call {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  body: unknown;
  authorization: string | null;
  headers: Headers;
}

type Handler = (call: Call) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;

/** A fake HTTP server behind `fetch`: routes are "METHOD /path" (the query string is ignored). */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const call: Call = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
      authorization: request.headers.get('Authorization'),
      headers: request.headers,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    const answer = handler
      ? await handler(call)
      : { status: 404, body: { statusCode: 404, code: 'HTTP.NOT_FOUND', message: 'Not found' } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  Object.defineProperty(globalThis, 'fetch', {
    value: fetchMock,
    configurable: true,
    writable: true,
    enumerable: true,
  });
  return { calls, fetchMock };
}

export function tokens(overrides: Partial<TokenSet> = {}): TokenSet {
  return {
    access_token: 'access-1',
    id_token: 'id-1',
    refresh_token: 'refresh-1',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    profile: { sub: 'user-1', email: 'awa@example.com', name: 'Awa Diop' },
    ...overrides,
  };
}

/** A fake oidc-client-ts manager keeping one user in memory. */
export function fakeUserManager(initial: TokenSet | null = tokens()) {
  const state = { user: initial };
  const manager = {
    state,
    getUser: jest.fn<UserManagerLike['getUser']>(async () => state.user),
    signinRedirect: jest.fn<UserManagerLike['signinRedirect']>(async () => undefined),
    signinCallback: jest.fn<UserManagerLike['signinCallback']>(async () => state.user ?? undefined),
    signinSilent: jest.fn<UserManagerLike['signinSilent']>(async () => state.user),
    signoutRedirect: jest.fn<UserManagerLike['signoutRedirect']>(async () => undefined),
    removeUser: jest.fn<UserManagerLike['removeUser']>(async () => {
      state.user = null;
    }),
    events: { addAccessTokenExpiring: jest.fn() },
  } satisfies UserManagerLike & { state: { user: TokenSet | null } };
  return manager;
}

/** A token source for the store's API: fixed token, counting renewals and sign-in redirects. */
export function fakeTokenSource(token: string | null = 'access-1'): TokenSource & {
  getAccessToken: ReturnType<typeof jest.fn>;
  redirectToLogin: ReturnType<typeof jest.fn>;
} {
  return {
    getAccessToken: jest.fn(async () => token),
    redirectToLogin: jest.fn(async () => undefined),
  };
}

/** Renders routes with the real store, a signed-in session (unless `signedIn: false`) and a memory router. */
export function renderRoutes(
  routes: RouteObject[],
  { path = '/', signedIn = true }: { path?: string; signedIn?: boolean } = {},
) {
  const userManager = fakeUserManager(signedIn ? tokens() : null);
  const manager = new SessionManager({
    loadConfig: async () => ({
      authority: 'http://localhost:3000/oidc',
      clientId: 'kora-web',
      audience: 'http://localhost:3000/api',
      scope: 'openid profile email offline_access',
      provider: 'built-in',
    }),
    createUserManager: async () => userManager,
    fetch: (...args) => fetch(...args),
    location: window.location,
    local: localStorage,
    session: sessionStorage,
    now: Date.now,
    language: () => 'en',
  });
  const realtime = { on: jest.fn(() => () => undefined), position: null };
  const store = makeStore({ session: manager, realtime });
  if (signedIn) {
    store.dispatch(
      sessionResolved({
        sub: 'user-1',
        email: 'awa@example.com',
        name: 'Awa Diop',
        givenName: 'Awa',
        familyName: 'Diop',
        picture: null,
      }),
    );
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const ui: ReactElement = (
    <Provider store={store}>
      <SessionProvider manager={manager}>
        <RouterProvider router={router} />
      </SessionProvider>
    </Provider>
  );
  return { ...render(ui), store, router, userManager, manager, realtime };
}

/** One side of a report, its loudness and peak as given, no curve or spectrum to draw. */
export const loudnessFacts = (integratedLufs: number, truePeakDbtp: number): LoudnessFacts => ({
  integratedLufs,
  truePeakDbtp,
  loudnessRangeLu: null,
  shortTermCurveLufs: [],
  spectrum: { bandsHz: [], levelsDb: [] },
});
