import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';

/**
 * A test-side OpenID client that does what the web client does over HTTP: authorization code with PKCE against the
 * built-in provider, driving its pages like a browser (a cookie-keeping agent, following its redirects by hand).
 */
export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

export class OidcTestClient {
  readonly agent: TestAgent;
  readonly redirectUri: string;
  private verifier = '';
  private state = '';

  constructor(
    readonly baseUrl: string,
    readonly clientId = 'kora-web',
  ) {
    this.agent = request.agent(baseUrl);
    this.redirectUri = `${baseUrl}/callback`;
  }

  /** Starts an authorization request; answers the interaction page path. */
  async authorize(extra: Record<string, string> = {}): Promise<string> {
    this.verifier = randomBytes(32).toString('base64url');
    this.state = randomBytes(8).toString('hex');
    const challenge = createHash('sha256').update(this.verifier).digest('base64url');
    const params = new URLSearchParams({
      client_id: this.clientId,
      response_type: 'code',
      redirect_uri: this.redirectUri,
      scope: 'openid profile email offline_access',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: this.state,
      prompt: 'consent',
      ...extra,
    });
    const response = await this.agent.get(`/oidc/auth?${params.toString()}`).redirects(0);
    if (response.status !== 303 && response.status !== 302)
      throw new Error(`authorize answered ${response.status}: ${response.text}`);
    return path(response.headers.location!);
  }

  /** Follows the provider's redirects from `location` until it sends the browser back to the client. */
  async followToCallback(location: string): Promise<string> {
    let next = location;
    for (let hops = 0; hops < 10; hops += 1) {
      if (next.startsWith(this.redirectUri)) {
        const url = new URL(next);
        if (url.searchParams.get('state') !== this.state) throw new Error('state mismatch');
        const code = url.searchParams.get('code');
        if (!code) throw new Error(`no code: ${next}`);
        return code;
      }
      const response = await this.agent.get(path(next)).redirects(0);
      if (response.status === 200) throw new Error(`stopped on a page at ${next}`);
      next = absolute(this.baseUrl, response.headers.location!);
    }
    throw new Error('too many redirects');
  }

  async exchange(code: string): Promise<Tokens> {
    const response = await this.agent.post('/oidc/token').type('form').send({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.redirectUri,
      client_id: this.clientId,
      code_verifier: this.verifier,
    });
    if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${response.text}`);
    return response.body as Tokens;
  }

  async refresh(refreshToken: string): Promise<{ status: number; body: Tokens & { error?: string } }> {
    const response = await this.agent
      .post('/oidc/token')
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: this.clientId });
    return { status: response.status, body: response.body };
  }

  /** Submits the provider's sign-up form from a fresh authorization request; answers the page it shows. */
  async submitSignUp(
    person: { email: string; password: string; firstName: string; lastName: string },
    extra: Record<string, string> = {},
  ): Promise<{ status: number; text: string; interaction: string }> {
    const interaction = await this.authorize(extra);
    const page = await this.agent.get(`${interaction}/signup`);
    if (page.status !== 200) throw new Error(`signup page answered ${page.status}`);
    const submitted = await this.agent.post(`${interaction}/signup`).type('form').send(person).redirects(0);
    return { status: submitted.status, text: submitted.text, interaction };
  }

  /**
   * Signs up as a person would: the form, the confirmation link from the outbox (the server needs DEV_OUTBOX=on),
   * then the sign-in page; answers the tokens.
   */
  async signUp(person: { email: string; password: string; firstName: string; lastName: string }): Promise<Tokens> {
    const seen = new Set((await outbox(this.baseUrl)).map((mail) => mail.id));
    const submitted = await this.submitSignUp(person);
    if (submitted.status !== 200) throw new Error(`signup answered ${submitted.status}: ${submitted.text}`);
    const to = person.email.trim().toLowerCase();
    const mail = await waitForMail(this.baseUrl, (m) => m.to === to && m.template === 'email-verification', seen);
    const link = /\/oidc\/verify\/[A-Za-z0-9_-]+\?lang=\w+/.exec(mail.text)?.[0];
    if (!link) throw new Error(`no confirmation link in ${mail.text}`);
    const confirmed = await this.agent.get(link);
    if (confirmed.status !== 200) throw new Error(`the confirmation link answered ${confirmed.status}`);
    const tokens = await this.signIn(person.email, person.password);
    if (!('access_token' in tokens)) throw new Error(`sign-in after sign-up answered ${tokens.status}`);
    return tokens;
  }

  /** Signs in through the provider's sign-in page. Answers the tokens, or the page's status when refused. */
  async signIn(email: string, password: string): Promise<Tokens | { status: number; text: string }> {
    const interaction = await this.authorize();
    const submitted = await this.agent.post(`${interaction}/login`).type('form').send({ email, password }).redirects(0);
    if (submitted.status !== 303 && submitted.status !== 302) return { status: submitted.status, text: submitted.text };
    return this.exchange(await this.followToCallback(absolute(this.baseUrl, submitted.headers.location!)));
  }
}

function path(location: string): string {
  if (location.startsWith('http')) {
    const url = new URL(location);
    return `${url.pathname}${url.search}`;
  }
  return location;
}

function absolute(base: string, location: string): string {
  return location.startsWith('http') ? location : `${base}${location}`;
}

/** The payload of a JWT, unverified (tests only look inside). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Decodes a quoted-printable mail body (soft line breaks and =XX escapes). */
export function decodeQuotedPrintable(text: string): string {
  return Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  template: string;
  language: string;
  acceptedAt: string;
}

/** The outbox's mails, newest first, over HTTP (the server needs DEV_OUTBOX=on). */
export async function outbox(baseUrl: string): Promise<OutboxMail[]> {
  const response = await request(baseUrl).get('/dev/outbox').set('Accept', 'application/json');
  if (response.status !== 200) throw new Error(`/dev/outbox answered ${response.status}`);
  return response.body as OutboxMail[];
}

/**
 * Waits for a mail that matches and is not among `seen` (mails that depend on an address go out after the answer),
 * and answers it with its decoded text.
 */
export async function waitForMail(
  baseUrl: string,
  match: (mail: OutboxMail) => boolean,
  seen: ReadonlySet<string> = new Set(),
  timeoutMs = 5_000,
): Promise<OutboxMail & { text: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await outbox(baseUrl)).find((candidate) => !seen.has(candidate.id) && match(candidate));
    if (mail) {
      const raw = await request(baseUrl).get(`/dev/outbox/${mail.id}`);
      return { ...mail, text: decodeQuotedPrintable(raw.text) };
    }
    if (Date.now() > deadline) throw new Error('no such mail in the outbox');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
