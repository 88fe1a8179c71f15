/**
 * `npm run test:faults`, the abuse half: what a stranger (or a signed-in user acting as one) sends to a REAL server
 * process on loopback (the built `backend/dist/main.js`), and what it may cost us. A lying WAV header, bodies that
 * never arrive, a deactivated account that still tries to spend, acknowledgements of other people's tracks, mail to
 * strangers, security headers over plain HTTP, and a command line whose output is captured. Prints a table with the
 * figures (memory, how long a stalled body is held, the API's p99 meanwhile).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeMedia } from '../support/media';
import { OidcTestClient, outbox, waitForMail } from '../support/oidc-client';
import { freePort, run, type Running, USERS, userToken, waitFor } from '../support/server-process';
import { tempDir } from '../support/temp';

const STALLED_BODIES = join(__dirname, '..', 'support', 'stalled-bodies.mjs');
const OPS_TOKEN = 'abuse-ops-token-0123456789abcdef';

// --- the table ---------------------------------------------------------------------------------------------------

const rows: Array<[string, string, string]> = [];
function record(abuse: string, outcome: string, figure = ''): void {
  rows.push([abuse, outcome, figure]);
}
function printTable(): void {
  const lines = ['| abuse | outcome | figure |', '|---|---|---|', ...rows.map((row) => `| ${row.join(' | ')} |`)];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

// --- memory of a process and its children, from /proc ------------------------------------------------------------

function rssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function children(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Samples the resident memory of `pid` and its children every 20 ms until stopped; answers the highest total. */
function watchMemory(pid: number): { stop(): number } {
  let peak = 0;
  const sample = (): void => {
    const total = [pid, ...children(pid)].reduce((sum, each) => sum + rssKb(each), 0);
    peak = Math.max(peak, total);
  };
  sample();
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak / 1024;
    },
  };
}

/** A WAV whose header says what it likes: `rate` Hz, mono, 16-bit, `samples` samples of a quiet tone. */
function wavAt(rate: number, samples: number): Buffer {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) data.writeInt16LE(Math.round(3000 * Math.sin(i / 3)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

describe('abuse against a real server process', () => {
  let dir: ReturnType<typeof tempDir> | null = null;
  let server: Running | null = null;
  let env: Record<string, string> = {};
  let url = '';
  let token = '';
  let auth: Record<string, string> = {};
  let music = '';

  beforeAll(async () => {
    dir = tempDir('kora-abuse-');
    mkdirSync(join(dir.path, 'media'));
    music = makeMedia(join(dir.path, 'media')).music(12, 'music.wav');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      // The documented LAN setup: a plain-HTTP public address that is not localhost.
      PUBLIC_URL: `http://kora.lan:${port}`,
      WEB_ORIGIN: url,
      DATA_DIR: join(dir.path, 'data'),
      LOG_LEVEL: 'warn',
      DEMO_TRACKS: 'off',
      DEV_OUTBOX: 'on',
      // Behind one proxy: the sign-in attack comes from many addresses (X-Forwarded-For).
      TRUST_PROXY: '1',
      OPS_TOKEN,
    };
    token = userToken(env, 'abuse@example.sn');
    auth = { Authorization: `Bearer ${token}` };
    server = run(env);
    const started = server;
    const answering = async (): Promise<boolean> => {
      if (started.child.exitCode !== null) return true;
      return fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
    };
    await waitFor(answering, 30_000);
    if (started.child.exitCode !== null) throw new Error(`server did not start:\n${started.output()}`);
    const signedUp = await fetch(`${url}/api/auth/signup`, { method: 'POST', headers: auth });
    expect(signedUp.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    printTable();
    server?.child.kill('SIGKILL');
    if (server) await server.exited;
    dir?.cleanup();
  }, 60_000);

  /** A new token for an existing user, from the operator command (as a new sign-in would give). */
  const tokenFor = (email: string): string =>
    execFileSync(process.execPath, [USERS, 'token', email, '--minutes', '30'], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();

  const upload = (file: Buffer | string, name: string, service = 'AI_MASTERING', headers = auth) => {
    const form = new FormData();
    form.append('service', service);
    const bytes = typeof file === 'string' ? readFileSync(file) : file;
    form.append('file', new Blob([bytes], { type: 'audio/wav' }), name);
    return fetch(`${url}/api/audio/upload`, { method: 'POST', headers, body: form });
  };
  const call = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${url}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.headers ?? auth), ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });

  it('refuses a WAV whose header lies about its sample rate before any job, and memory stays flat', async () => {
    // 1.2 MB, read at the 100 Hz it declares: 6,000 s of audio.
    const memory = watchMemory(server!.child.pid!);
    const before = rssKb(server!.child.pid!) / 1024;
    const refused = await upload(wavAt(100, 600_000), 'lie.wav');
    const body = (await refused.json()) as { code: string };
    await new Promise((resolve) => setTimeout(resolve, 500));
    const peak = memory.stop();
    expect(refused.status).toBe(400);
    expect(body.code).toBe('UPLOAD.SAMPLE_RATE');
    expect(peak - before).toBeLessThan(100);
    record(
      'a 1.2 MB WAV declaring 100 Hz (6,000 s)',
      `400 UPLOAD.SAMPLE_RATE, no job`,
      `server and children ${Math.round(peak)} MB at most (${Math.round(before)} MB before)`,
    );
    // A legitimate file still goes through.
    expect((await upload(music, 'music.wav')).status).toBe(201);
  });

  it('closes a stalled body within 10 s without a token and 30 s with one, the API fast while 2,000 are held', async () => {
    const HELD = 2_000;
    const FLOOD = 2_000;
    const TIMED = 20;
    // The API's latency as a user sees it: 200 calls one after another.
    const healthP99 = async (): Promise<number> => {
      const latencies: number[] = [];
      for (let i = 0; i < 200; i += 1) {
        const started = performance.now();
        const health = await fetch(`${url}/api/health`);
        await health.arrayBuffer();
        latencies.push(performance.now() - started);
      }
      return percentile(latencies, 99);
    };
    // The requests the server has read and not yet answered, from its own gauge (this scrape among them).
    const inProgress = async (): Promise<number> => {
      const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } })).text();
      return Number(/^kora_http_requests_in_progress (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
    };
    // What this machine gives the API at this moment, before the attack (the suite shares the cores with others).
    const before = await healthP99();
    // The attacker is a process of its own, as it is another machine: this process's loop then handles only the
    // user's calls. `stalled-bodies.mjs` says what its three groups are: 20 with the token, timed; a flood of 2,000
    // without, refused; then 2,000 with the token, which the server must hold. The API is timed once the server has
    // read all of those (its gauge says so), while it holds them: not while 2,000 requests arrive in the same instant,
    // whose answers the calls of that moment queue behind (370 ms on this machine; the flood's figure is recorded).
    const attacker = spawn(
      process.execPath,
      [STALLED_BODIES, url, '/api/mixing/sessions/create', String(TIMED), String(FLOOD), String(HELD), token],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    type Group = {
      statuses: number[];
      afterWrite: number;
      afterAnswer: number;
      firstClosedAt: number;
      lastClosedAt: number;
    };
    let p99: number;
    let allHeldAt: number;
    let measuredUntil: number;
    let ready: { ready?: boolean; refusedInMs?: number } = {};
    let result: { timed?: Group; anonymous?: Group; held?: Group } = {};
    try {
      const lines = createInterface({ input: attacker.stdout! })[Symbol.asyncIterator]();
      ready = JSON.parse(((await lines.next()).value as string | undefined) ?? '{}') as typeof ready;
      expect(ready.ready).toBe(true);
      await waitFor(async () => (await inProgress()) >= TIMED + HELD + 1, 20_000);
      allHeldAt = Date.now();
      p99 = await healthP99();
      measuredUntil = Date.now();
      result = JSON.parse(((await lines.next()).value as string | undefined) ?? '{}') as typeof result;
    } finally {
      attacker.kill();
    }
    expect(Object.keys(result).sort()).toEqual(['anonymous', 'held', 'timed']);
    const { timed, anonymous, held } = result as Required<typeof result>;
    // Without a token the answer comes before the body (`TokenBeforeBody`): a 401, then the connection closed.
    expect(anonymous.statuses).toEqual([401]);
    expect(anonymous.afterAnswer).toBeLessThanOrEqual(11_000);
    // With one, no answer: closed after 30 s without a byte, and not before (the token's clients get their 30 s).
    expect(timed.statuses).toEqual([0]);
    expect(timed.afterWrite).toBeLessThanOrEqual(31_000);
    expect(timed.afterWrite).toBeGreaterThanOrEqual(29_000);
    expect(held.statuses).toEqual([0]);
    // Each of the held was read by the server when its gauge counted them all: closed within its 30 s of that.
    expect(held.lastClosedAt).toBeLessThanOrEqual(allHeldAt + 31_000);
    // And all still held while the API was timed (one clock, the machine's, for both processes).
    expect(Math.min(timed.firstClosedAt, held.firstClosedAt)).toBeGreaterThan(measuredUntil);
    // Under 50 ms (the target, met on a quiet machine: docs/benchmarks.md), or, when other work holds the cores, no
    // slower than twice what the same calls took just before: held sockets that cost the API would show far more.
    expect(p99).toBeLessThan(Math.max(50, 2 * before));
    record(
      `${FLOOD.toLocaleString('en-US')} connections at once announcing a 1,000-byte body and sending 4 bytes, no token`,
      '401 before the body, then closed by the server',
      `all refused within ${ready.refusedInMs} ms of the first; each closed ${(anonymous.afterAnswer / 1000).toFixed(1)} s ` +
        'after its answer at most',
    );
    record(
      `the same with a valid token (${TIMED} connections, then ${HELD.toLocaleString('en-US')} more)`,
      'closed by the server after 30 s without a byte',
      `held ${(timed.afterWrite / 1000).toFixed(1)} s at most; \`/api/health\` p99 ${p99.toFixed(1)} ms while the ` +
        `${(TIMED + HELD).toLocaleString('en-US')} were held (${before.toFixed(1)} ms just before)`,
    );
    expect((await call('/api/mixing/sessions/create', { method: 'POST', body: { name: 'after' } })).status).toBe(201);
  }, 70_000);

  it('lets a deactivated account read, and neither spend nor change anything until it signs up again', async () => {
    const email = 'abuse-deactivated@example.ci';
    const first = userToken(env, email);
    const headers = { Authorization: `Bearer ${first}` };
    expect((await call('/api/auth/signup', { method: 'POST', headers })).status).toBe(200);
    const deactivated = await call('/api/user/account/deactivate', {
      method: 'POST',
      headers,
      body: { confirmationText: 'DELETE' },
    });
    expect(deactivated.status).toBe(200);
    // Signed in again (a new token), without the sign-up call that reactivates.
    const again = { Authorization: `Bearer ${tokenFor(email)}` };
    const tries = {
      'a payment intent': await call('/api/payments/createIntent', {
        method: 'POST',
        headers: again,
        body: { provider: 'PAYPAL', currency: 'USD', planId: 'starter', billingCycle: 'MONTHLY', paymentType: 'PACK' },
      }),
      'a mixing session': await call('/api/mixing/sessions/create', {
        method: 'POST',
        headers: again,
        body: { name: 'x' },
      }),
      'an upload': await upload(music, 'music.wav', 'AI_MASTERING', again),
    };
    for (const [what, answer] of Object.entries(tries)) {
      expect([what, answer.status, ((await answer.json()) as { code: string }).code]).toEqual([
        what,
        403,
        'ACCOUNT.DEACTIVATED',
      ]);
    }
    expect((await call('/api/payments/history', { headers: again })).status).toBe(200);
    expect((await call('/api/auth/signup', { method: 'POST', headers: again })).status).toBe(200);
    expect(
      (await call('/api/mixing/sessions/create', { method: 'POST', headers: again, body: { name: 'back' } })).status,
    ).toBe(201);
    record(
      'a deactivated account signed in again: a payment intent, a mixing session, an upload',
      '403 ACCOUNT.DEACTIVATED each; reads answered; after the sign-up call (reactivation) 201',
    );
  });

  it('acknowledges only the user’s own tracks, and mails strangers 5 times a day under a neutral subject', async () => {
    // Once the first test's job is done (one job at a time per service), a file named to be seen.
    const done = async (id: string) =>
      ((await (await call(`/api/audio/track/${id}/status`)).json()) as { status: string }).status === 'PREVIEW_READY';
    const listed = (await (await call('/api/audio/tracks?service=AI_MASTERING')).json()) as {
      tracks: Array<{ id: string }>;
    };
    for (const track of listed.tracks) await waitFor(() => done(track.id), 60_000);
    const mine = (await (await upload(music, 'evil.exe.wav', 'AI_MASTERING')).json()) as { id: string };
    const trackId = mine.id;
    await waitFor(() => done(trackId), 60_000);
    const other = { Authorization: `Bearer ${userToken(env, 'abuse-other@example.tg')}` };
    expect((await call('/api/auth/signup', { method: 'POST', headers: other })).status).toBe(200);
    const acknowledge = (headers: Record<string, string>, id: string) =>
      call('/api/notifications/acknowledge', {
        method: 'POST',
        headers,
        body: { trackId: id, notificationType: 'PREVIEW_READY' },
      });
    let refused = 0;
    for (let i = 0; i < 50; i += 1) {
      const answer = await acknowledge(
        other,
        i === 0 ? trackId : `01a2b3c4-d5e6-7f80-9a1b-${String(i).padStart(12, '0')}`,
      );
      if (answer.status === 404) refused += 1;
    }
    expect(refused).toBe(50);
    expect((await acknowledge(auth, trackId)).status).toBe(200);
    record('50 acknowledgements of tracks that are not the caller’s', `404 TRACKS.NOT_FOUND each, nothing recorded`);

    const statuses: number[] = [];
    for (let i = 1; i <= 8; i += 1) {
      const sent = await call('/api/audio/send-email', {
        method: 'POST',
        body: { trackId, recipientEmail: `stranger-${i}@example.org` },
      });
      statuses.push(sent.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const outbox = (await (
      await fetch(`${url}/dev/outbox`, { headers: { Accept: 'application/json' } })
    ).json()) as Array<{
      subject: string;
      template: string;
    }>;
    const subjects = outbox.filter((mail) => mail.template === 'track-result').map((mail) => mail.subject);
    expect(subjects.some((subject) => subject.includes('evil'))).toBe(false);
    record(
      '8 result mails to 8 strangers',
      `5 sent, then 429 EMAIL.DAILY_LIMIT; subjects: ${[...new Set(subjects)].join(', ')}`,
    );
  }, 120_000);

  it('keeps the owner able to sign in from a new browser while a guesser keeps the account slowed down', async () => {
    const email = 'abuse-owner@example.sn';
    const password = 'the-owner-knows-1';
    userToken(env, email, password);
    let addresses = 0;
    const guess = async (): Promise<number> => {
      const guesser = new OidcTestClient(url);
      const interaction = await guesser.authorize();
      addresses += 1;
      const answer = await guesser.agent
        .post(`${interaction}/login`)
        .set('X-Forwarded-For', `198.51.100.${addresses % 250}`)
        .type('form')
        .send({ email, password: `guess-${addresses}` })
        .redirects(0);
      return answer.status;
    };
    // Enough failures from rotating addresses to slow the account down for everyone else.
    for (let i = 0; i < 16; i += 1) await guess();
    const attack = { running: true, tries: 0 };
    const attacking = (async () => {
      while (attack.running) {
        await guess();
        attack.tries += 1;
      }
    })();
    const times: number[] = [];
    let throughLink = 0;
    try {
      for (let round = 0; round < 3; round += 1) {
        // The owner's last success forgave the account's failures: the guesser slows it down again.
        for (let i = 0; i < 12; i += 1) await guess();
        const started = Date.now();
        const owner = new OidcTestClient(url);
        const first = await owner.signIn(email, password);
        if (!('access_token' in first)) {
          expect(first).toMatchObject({ status: 429 });
          expect(first.text).toContain('M’envoyer un lien pour ce navigateur');
          const seen = new Set((await outbox(url)).map((mail) => mail.id));
          const interaction = await owner.authorize();
          const asked = await owner.agent.post(`${interaction}/trust`).type('form').send({ email });
          expect(asked.status).toBe(200);
          const mail = await waitForMail(url, (m) => m.to === email && m.template === 'trust-device', seen);
          const link = new URL(/http:\/\/\S+\/oidc\/trust\/[A-Za-z0-9_-]+\?lang=\w+/.exec(mail.text)![0]);
          expect((await owner.agent.get(link.pathname + link.search)).status).toBe(200);
          const tokens = await owner.signIn(email, password);
          expect('access_token' in tokens).toBe(true);
          throughLink += 1;
        }
        times.push(Date.now() - started);
      }
    } finally {
      attack.running = false;
      await attacking;
    }
    expect(attack.tries).toBeGreaterThan(0);
    expect(throughLink).toBeGreaterThan(0);
    record(
      `a guesser from ${addresses} addresses keeping the account slowed (${attack.tries} guesses in the background)`,
      `the owner in from a new browser 3 times of 3: ${throughLink} after 429 and "E-mail me a link for this browser"` +
        (throughLink < 3 ? `, ${3 - throughLink} between two guesses` : ''),
      `${(Math.max(...times) / 1000).toFixed(1)} s at most from the first try to the tokens`,
    );
  }, 120_000);

  it('sends no HSTS and no HTTPS upgrade on a plain-HTTP public address', async () => {
    const home = await fetch(`${url}/`, { headers: { Accept: 'text/html' } });
    expect(home.headers.get('strict-transport-security')).toBeNull();
    expect(home.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    record(
      'the web app on `PUBLIC_URL=http://kora.lan:<port>`',
      'no Strict-Transport-Security, no upgrade-insecure-requests',
    );
  });

  it('prints only the token on stdout from the command line, with the server running', () => {
    const printed = execFileSync(process.execPath, [USERS, 'token', 'abuse@example.sn', '--minutes', '5'], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(printed).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    record('`T=$(users token …)` while the server runs', 'stdout is the token alone (logs on stderr)');
  });
});
