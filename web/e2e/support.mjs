// Shared by the browser suite and bench:web: the real server on a free loopback port with a fresh data directory,
// Debian's Chromium through playwright-core, and the operator command lines.
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

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

/** Starts `backend/dist/main.js` (built beforehand) and resolves once it answers. */
export async function startServer() {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'kora-web-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
  };
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
  return {
    baseUrl,
    env,
    dataDir,
    output: () => output,
    /** Runs one of the server's command lines (`notify`, `users`) against this server's data. */
    async cli(name, args) {
      const { stdout } = await run(process.execPath, [`backend/dist/cli/${name}.js`, ...args], { cwd: ROOT, env });
      return stdout;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Creates an account on the built-in provider's pages (the browser is on its sign-in page). */
export async function signUpOnProvider(page, { firstName, lastName, email, password }) {
  await page.locator('a[href$="/signup"]').click();
  await page.locator('#f-firstName').fill(firstName);
  await page.locator('#f-lastName').fill(lastName);
  await page.locator('#f-email').fill(email);
  await page.locator('#f-password').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/** Signs in on the built-in provider's sign-in page. */
export async function signInOnProvider(page, { email, password }) {
  await page.locator('#f-email').fill(email);
  await page.locator('#f-password').fill(password);
  await page.locator('form button[type="submit"]').click();
}
