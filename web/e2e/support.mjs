// Shared by the browser suite and bench:web: the real server on a free loopback port with a fresh data directory,
// Chromium through playwright-core (the system's, else the npm-shipped one: `browser.mjs`), and the operator command
// lines.
import { spawn, execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { chromiumExecutable } from './browser.mjs';
import { startPhoneNetwork } from './phone-network.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** Where a failed browser test leaves what happened (`recordFailures`); `web/e2e/run.mjs` prints it after a failure. */
export const ARTIFACTS = process.env.KORA_E2E_ARTIFACTS ?? join(ROOT, 'web', 'e2e', 'artifacts');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `backend/dist/main.js` (built beforehand) and resolves once it answers. `baseUrl` is `http://127.0.0.1:<port>`,
 * also its PUBLIC_URL unless `publicUrl: false` leaves PUBLIC_URL unset (as `npm start` does: http://localhost:<port>).
 * With `phoneNetwork`, everything goes through a phone's network (`phone-network.mjs`, `server.network`): `baseUrl` and
 * PUBLIC_URL are the proxy's.
 */
export async function startServer({ publicUrl = true, phoneNetwork = false } = {}) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'kora-web-e2e-'));
  const network = phoneNetwork ? await startPhoneNetwork(port) : null;
  const baseUrl = `http://127.0.0.1:${network ? network.port : port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    // Every request is logged, so a failed test's server log shows what reached the server and what it answered.
    LOG_LEVEL: process.env.KORA_E2E_LOG_LEVEL ?? 'info',
    // The suite follows e-mailed links: the outbox is open to it, as on a development machine.
    DEV_OUTBOX: 'on',
  };
  if (!publicUrl) delete env.PUBLIC_URL;
  const child = spawn(process.execPath, ['backend/dist/main.js'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server stopped (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/auth/config`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`The server did not answer within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const server = {
    baseUrl,
    port,
    env,
    dataDir,
    network,
    output: () => output,
    /** Runs one of the server's command lines (`notify`, `users`) against this server's data. */
    async cli(name, args) {
      const { stdout } = await run(process.execPath, [`backend/dist/cli/${name}.js`, ...args], { cwd: ROOT, env });
      return stdout;
    },
    async stop() {
      running.delete(server);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await network?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  running.add(server);
  return server;
}

/** A WAV made by ffmpeg at `path`: `seconds` of a two-note chord with a pulse (CD audio unless told otherwise). */
export function chordWav(path, seconds, { rate = 44100, channels = 2 } = {}) {
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
    ...['-filter_complex', '[0][1]amix=inputs=2,volume=0.5,apulsator=hz=2'],
    ...['-ac', String(channels), '-ar', String(rate), '-c:a', 'pcm_s16le', path],
  ]);
  return path;
}

/** Chromium headless: CHROMIUM_PATH, else the system's, else the npm-shipped one (`browser.mjs`). */
export async function launchBrowser() {
  const { path } = await chromiumExecutable();
  return chromium.launch({ executablePath: path, args: CHROMIUM_ARGS });
}

/**
 * Creates an account on the built-in provider's pages as a person does (the browser is on its sign-in page): the
 * form, the confirmation link from the mail (opened in another tab, as from a mail client), then back to the first
 * tab to sign in. The server's outbox must be open (DEV_OUTBOX=on, as `startServer` sets it).
 */
export async function signUpOnProvider(page, server, { firstName, lastName, email, password }) {
  await page.locator('a[href$="/signup"]').click();
  await page.locator('#f-firstName').fill(firstName);
  await page.locator('#f-lastName').fill(lastName);
  await page.locator('#f-email').fill(email);
  await page.locator('#f-password').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.locator('.notice').waitFor();
  const link = await confirmationLink(server.baseUrl, email.toLowerCase());
  const mailTab = await page.context().newPage();
  await mailTab.goto(link);
  await mailTab.locator('a[href$="/login"]').waitFor();
  await mailTab.close();
  await page.locator('a[href*="/oidc/interaction/"]').click();
  await signInOnProvider(page, { email, password });
}

/** The link of the newest account-confirmation mail to `to` (mails go out just after the answer: it waits). */
async function confirmationLink(baseUrl, to) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await (await fetch(`${baseUrl}/dev/outbox`, { headers: { Accept: 'application/json' } })).json();
    const mail = mails.find((entry) => entry.to === to && entry.template === 'email-verification');
    if (mail) {
      const raw = await (await fetch(`${baseUrl}/dev/outbox/${mail.id}`)).text();
      const text = raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
      const link = /https?:\/\/[^\s]+\/oidc\/verify\/[A-Za-z0-9_-]+\?lang=\w+/.exec(text);
      if (link) return link[0];
    }
    if (Date.now() > deadline) throw new Error(`no confirmation mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Signs in on the built-in provider's sign-in page. */
export async function signInOnProvider(page, { email, password }) {
  await page.locator('#f-email').fill(email);
  await page.locator('#f-password').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/** The servers this file started and the browser contexts it watches, and what they did during the current test. */
const running = new Set();
const contexts = new Set();
let journal = { console: [], network: [] };

const stamp = () => new Date().toISOString().slice(11, 23);

/**
 * Records what a browser context does: its console and page errors, each page's navigations, every request with its
 * answer (status and time) or its failure. Kept for the current test only; written out if it fails.
 */
export function watch(context) {
  contexts.add(context);
  context.on('close', () => contexts.delete(context));
  const started = new WeakMap();
  context.on('console', (message) =>
    journal.console.push(`${stamp()} ${message.type()} ${message.text()} (${message.page()?.url() ?? 'no page'})`),
  );
  context.on('weberror', (error) =>
    journal.console.push(`${stamp()} pageerror ${error.error().stack ?? error.error()}`),
  );
  context.on('page', (page) =>
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) journal.network.push(`${stamp()} navigated ${frame.url()}`);
    }),
  );
  // Requests the service worker makes itself, and answers it gave from its cache or its fetches, are marked: a page
  // whose assets go through it depends on it.
  context.on('request', (request) => {
    started.set(request, Date.now());
    const by = request.serviceWorker() ? ' [by the service worker]' : '';
    journal.network.push(`${stamp()} -> ${request.method()} ${request.url()}${by}`);
  });
  const took = (request) => `${Date.now() - (started.get(request) ?? Date.now())} ms`;
  context.on('response', (response) =>
    journal.network.push(
      `${stamp()} <- ${response.status()} ${response.request().method()} ${response.url()} (${took(response.request())})` +
        (response.fromServiceWorker() ? ' [from the service worker]' : ''),
    ),
  );
  context.on('requestfailed', (request) =>
    journal.network.push(
      `${stamp()} xx ${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'} (${took(request)})`,
    ),
  );
  return context;
}

/**
 * Closes a browser context without racing a navigation. Chromium can acknowledge the close of a page whose navigation
 * is committing and never close it; Playwright's `close()`, which has no timeout, then waits forever
 * (microsoft/playwright#42366). That hung the app file's logout test in fresh-clone CI run 46: the other device's page
 * was still following the socket's redirect to sign-in when its context was closed. So each page is first let
 * reach its load state, then the close is bounded: a close that still hangs fails the test with this cause named,
 * instead of the test's own timeout with nothing said.
 */
export async function closeContext(context, { settleMs = 10_000, closeMs = 15_000 } = {}) {
  for (const page of context.pages()) await page.waitForLoadState('load', { timeout: settleMs }).catch(() => undefined);
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`context.close() still pending after ${closeMs} ms (pages: ${urls(context)})`)),
      closeMs,
    );
  });
  try {
    await Promise.race([context.close(), hung]);
  } finally {
    clearTimeout(timer);
  }
}

const urls = (context) =>
  context
    .pages()
    .map((page) => page.url())
    .join(', ') || 'none';

const fileName = (text) =>
  text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);

/**
 * For the test file that calls it (once, at its top level): before each test, start a new journal and mark where each
 * server's log stands; after a test that failed, write under ARTIFACTS/<file>/<test>/ its error, the browser's console
 * and network journal, each server's log over the test and a screenshot of each open page.
 */
export function recordFailures(file) {
  const marks = new Map();
  beforeEach(() => {
    journal = { console: [], network: [] };
    for (const server of running) marks.set(server, server.output().length);
  });
  afterEach(async (t) => {
    if (t.passed) return;
    const dir = join(ARTIFACTS, fileName(file), fileName(t.name));
    await mkdir(dir, { recursive: true });
    const error = t.error?.cause ?? t.error;
    await writeFile(join(dir, 'error.txt'), `${t.fullName ?? t.name}\n\n${error?.stack ?? error}\n`);
    await writeFile(join(dir, 'console.log'), `${journal.console.join('\n')}\n`);
    await writeFile(join(dir, 'network.log'), `${journal.network.join('\n')}\n`);
    let n = 0;
    for (const server of running) {
      n += 1;
      await writeFile(join(dir, `server-${n}.log`), server.output().slice(marks.get(server) ?? 0));
    }
    n = 0;
    for (const context of contexts)
      for (const page of context.pages()) {
        n += 1;
        await writeFile(join(dir, `page-${n}.url.txt`), `${page.url()}\n`).catch(() => undefined);
        await page.screenshot({ path: join(dir, `page-${n}.png`), timeout: 5_000 }).catch(() => undefined);
      }
  });
}
