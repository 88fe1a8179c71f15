import { ProviderUnavailable } from '../port';

/** What a provider's REST call answered: its status and parsed JSON body (null when the body is not JSON). */
export interface ProviderAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * One HTTP call to a provider with a deadline. A network failure or the deadline is `ProviderUnavailable` (nothing
 * can be concluded: the reconciler asks again later); any HTTP answer is returned for the adapter to read.
 */
export async function providerCall(
  provider: string,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    throw new ProviderUnavailable(`${provider}: ${init.method} ${new URL(url).pathname}: ${reason}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ProviderUnavailable(`${provider}: the answer was cut: ${(error as Error).message}`);
  }
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  return { status: response.status, body, headers: response.headers };
}

/** An OAuth2 client-credentials token, fetched once and reused until shortly before it expires. */
export class TokenCache {
  private token: { value: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly fetchToken: () => Promise<{ accessToken: string; expiresInSeconds: number }>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached token, or a new one (one request at a time, however many callers wait). */
  get(): Promise<string> {
    if (this.token && this.now() < this.token.expiresAt) return Promise.resolve(this.token.value);
    this.pending ??= this.fetchToken()
      .then(({ accessToken, expiresInSeconds }) => {
        // Renewed a minute early (or at half its life when shorter), so a call never leaves with a dying token.
        const margin = Math.min(60, expiresInSeconds / 2) * 1000;
        this.token = { value: accessToken, expiresAt: this.now() + expiresInSeconds * 1000 - margin };
        return accessToken;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  /** Forgets the token (the provider said 401: revoked or expired early). */
  clear(): void {
    this.token = null;
  }
}
