import {
  type BaseQueryFn,
  createApi,
  type FetchArgs,
  fetchBaseQuery,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { type ErrorAnswer, isErrorAnswer } from '@kora/contracts';
import type { RealtimeClient } from './realtime';

/** What the API needs from the session: tokens, and a way back to sign-in. */
export interface TokenSource {
  getAccessToken(options?: { forceRefresh?: boolean }): Promise<string | null>;
  redirectToLogin(returnTo?: string): Promise<void>;
}

/** The store's extra argument: what endpoints reach outside Redux. */
export interface ApiExtra {
  session: TokenSource;
  /** The socket feed; its `position` (the newest event it delivered) rides on every call, see `withBearer`. */
  realtime: Pick<RealtimeClient, 'on' | 'position'> | null;
}

/** Every error the server sends: the contract's `{ statusCode, code, message, fields?, details? }`. */
export type ApiErrorBody = ErrorAnswer;

export const AUTH_REQUIRED: ApiErrorBody = {
  statusCode: 401,
  code: 'AUTH.REQUIRED',
  message: 'Authentication required',
};

export function errorBody(error: unknown): ApiErrorBody | null {
  const data = (error as { data?: unknown } | undefined)?.data;
  return isErrorAnswer(data) ? data : null;
}

export function errorStatus(error: unknown): number | string | null {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' || typeof status === 'string' ? status : null;
}

// Absolute, so the same code runs in the browser and under jsdom (whose fetch needs a full URL).
const API_BASE = `${typeof window === 'undefined' ? '' : window.location.origin}/api`;
const raw = fetchBaseQuery({ baseUrl: API_BASE, credentials: 'include' });

async function token(session: TokenSource, forceRefresh: boolean): Promise<string | null> {
  try {
    return await session.getAccessToken({ forceRefresh });
  } catch (error) {
    // Spec §7: a token that cannot be added is logged, and the request goes on without it.
    console.warn('No access token for the request', error);
    return null;
  }
}

/**
 * The newest event position the socket delivered: the server answers once its read models show that event, so a
 * list refetched because a message said a track changed shows the change (docs/api.md, "Reading after a push").
 */
export const SEEN_POSITION_HEADER = 'Kora-Seen-Position';

function withBearer(args: string | FetchArgs, bearer: string | null, seen: number | null): FetchArgs {
  const request: FetchArgs = typeof args === 'string' ? { url: args } : { ...args };
  const headers = new Headers(request.headers as HeadersInit | undefined);
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
  if (seen !== null) headers.set(SEEN_POSITION_HEADER, String(seen));
  request.headers = headers;
  return request;
}

/**
 * Every call carries the bearer token. A 401 is retried once with a renewed token; a second 401 (or no token to
 * renew) saves the current path, starts the sign-in and fails with `Authentication required`.
 */
export const authorizedBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const { session, realtime } = api.extra as ApiExtra;
  const seen = realtime?.position ?? null;
  let result = await raw(withBearer(args, await token(session, false), seen), api, extraOptions);
  if (result.error?.status !== 401) return result;
  const fresh = await token(session, true);
  if (fresh) {
    result = await raw(withBearer(args, fresh, seen), api, extraOptions);
    if (result.error?.status !== 401) return result;
  }
  await session.redirectToLogin().catch((error: unknown) => console.error(error));
  return { error: { status: 401, data: AUTH_REQUIRED } };
};

/**
 * The one API definition of the client. Features add their endpoints with `api.injectEndpoints`, so each route's
 * bundle carries only its own calls. Tags: one per entity id plus a LIST tag per collection.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: authorizedBaseQuery,
  tagTypes: ['Health', 'Profile', 'Preferences', 'Notification', 'Subscription', 'Plan', 'Usage', 'Payment', 'Track'],
  refetchOnFocus: true,
  endpoints: () => ({}),
});
