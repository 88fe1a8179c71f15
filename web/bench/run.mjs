/* eslint no-console: "off" -- a benchmark prints its figures */
/* global document -- the function given to waitForFunction runs in the browser */
// bench:web: the first route's JavaScript (gzipped) and the time until the account settings page is interactive,
// against the real server on loopback in headless Chromium. `npm run bench:web` builds the server and client first.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, launchBrowser, signUpOnProvider, startServer } from '../e2e/support.mjs';

const TARGET_FIRST_ROUTE_KB = 200;
const TARGET_INTERACTIVE_MS = 1500;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const server = await startServer();
const browser = await launchBrowser();
let failed = false;
try {
  // An account, signed in once; its stored session is reused by every measured page.
  const setup = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const page = await setup.newPage();
  await page.goto(`${server.baseUrl}/accountSettings?section=general`);
  await page.waitForURL(/\/oidc\/interaction\//);
  await signUpOnProvider(page, server, {
    firstName: 'Bench',
    lastName: 'Mark',
    email: `bench.${Date.now()}@example.com`,
    password: 'bench-password-2026',
  });
  await page.locator('form[data-ready]').waitFor({ timeout: 20_000 });
  const storageState = await setup.storageState();
  await setup.close();

  /** The scripts a cold load of `path` requests, and their gzipped sizes. */
  async function scriptsOf(path) {
    const context = await browser.newContext({ storageState, serviceWorkers: 'block' });
    const tab = await context.newPage();
    const scripts = new Set();
    tab.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script' && url.origin === server.baseUrl) scripts.add(url.pathname);
    });
    await tab.goto(`${server.baseUrl}${path}`, { waitUntil: 'networkidle' });
    await context.close();
    const sizes = [];
    for (const script of scripts) {
      const bytes = await readFile(join(ROOT, 'web', 'dist', script));
      sizes.push({ script, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    }
    return sizes.sort((a, b) => b.gzip - a.gzip);
  }

  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const first = await scriptsOf('/');
  const firstTotal = first.reduce((sum, file) => sum + file.gzip, 0);
  console.log(`First route (/), signed in, cold cache: ${first.length} scripts`);
  for (const file of first) console.log(`  ${file.script}  ${kb(file.raw)} KB raw, ${kb(file.gzip)} KB gzipped`);
  console.log(`  total ${kb(firstTotal)} KB gzipped (target <= ${TARGET_FIRST_ROUTE_KB} KB)`);
  if (firstTotal / 1024 > TARGET_FIRST_ROUTE_KB) failed = true;
  const settings = await scriptsOf('/accountSettings?section=general');
  const settingsTotal = settings.reduce((sum, file) => sum + file.gzip, 0);
  console.log(`Account settings route: ${settings.length} scripts, ${kb(settingsTotal)} KB gzipped in all`);

  // Time from navigation start until the profile form is filled and usable, cold cache, each run a new context.
  const times = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ storageState, serviceWorkers: 'block' });
    const tab = await context.newPage();
    await tab.goto(`${server.baseUrl}/accountSettings?section=general`, { waitUntil: 'commit' });
    const ready = await tab.waitForFunction(
      () => {
        const form = document.querySelector('form[data-ready]');
        const input = form?.querySelector('input[name="firstName"]');
        return input && input.value !== '' && !input.disabled ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 20_000 },
    );
    times.push(await ready.jsonValue());
    await context.close();
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  console.log(
    `Account settings interactive (${RUNS} cold loads): median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, ` +
      `min ${times[0].toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms (target <= ${TARGET_INTERACTIVE_MS} ms)`,
  );
  if (at(0.95) > TARGET_INTERACTIVE_MS) failed = true;
} finally {
  await browser.close();
  await server.stop();
}
console.log(failed ? 'bench:web: a target was missed' : 'bench:web: both targets met');
process.exitCode = failed ? 1 : 0;
