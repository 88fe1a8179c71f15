import { join } from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { OidcTestClient } from '../support/oidc-client';
import { freePort, masterToPreview, run, type Running, userToken, waitFor } from '../support/server-process';
import { tempDir } from '../support/temp';

/**
 * Kora on the Node.js this process runs: the whole suite runs it on the current LTS line, and `npm test` runs this
 * file alone on each other supported line after a fresh `npm ci` and build there (`scripts/node-lines.mjs smoke`).
 *
 * Both tests met the abort users met on Node 24.21 with better-sqlite3 12 ("Assertion failed: (env) != nullptr" in
 * `Statement::~Statement`, the server gone shortly after the first account was made), and pass with better-sqlite3 13.
 * The statements behind it are the ones the driver prepares and drops by itself (each read model's batch sets
 * `synchronous` with a pragma): when V8 collected one outside a JavaScript context, 12's destructor aborted the
 * process. The second test is the case as it was found: accounts appended to the event log by another process (the
 * `users` command line), read by every projection, processor and the socket publisher from the table, with the
 * server collecting garbage after every megabyte allocated so that it happens within the test, not minutes later.
 */

/** A young generation of 1 MB: V8 collects after every megabyte allocated, as it does in production but far more often. */
const COLLECT_OFTEN = ['--max-semi-space-size=1'];
const FATAL = /Assertion failed|Segmentation fault|FATAL ERROR|Aborted|core dumped/i;

async function stopCleanly(server: Running): Promise<void> {
  server.child.kill('SIGTERM');
  const exited = await server.exited;
  const fatal = FATAL.exec(server.output())?.[0];
  // A failure carries the log's tail, so it says why the process ended as it did.
  if (exited.code !== 0 || exited.signal !== null || fatal)
    throw new Error(
      `the server did not stop cleanly (exit ${exited.code ?? exited.signal}${fatal ? `, "${fatal}"` : ''}):\n` +
        server.output().slice(-1500),
    );
  expect(server.output()).toContain('shutdown complete');
}

describe(`Kora on Node.js ${process.version}`, () => {
  const dirs: Array<{ cleanup: () => void }> = [];
  const servers: Running[] = [];
  // The first server makes the demo material, the next copies it (DEMO_CACHE_DIR): what this file tests is the runtime.
  // Under `npm test` the cache is the run's own (`scripts/node-lines.mjs run`), which the browser suite and the smoke on
  // the other lines then copy from.
  const demoCache = process.env.DEMO_CACHE_DIR
    ? { path: process.env.DEMO_CACHE_DIR, cleanup: () => undefined }
    : tempDir('kora-runtime-demo-');
  afterAll(() => demoCache.cleanup());
  afterEach(async () => {
    // A server dying as a test ends (a request cut off by its abort) has a moment to be seen exiting.
    await Promise.all(servers.map((s) => Promise.race([s.exited, new Promise((r) => setTimeout(r, 500))])));
    const ended = (s: Running): boolean => s.child.exitCode !== null || s.child.signalCode !== null;
    const died = servers.filter((s) => ended(s) && !s.child.killed);
    for (const { child } of servers.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) dir.cleanup();
    // A server that ended by itself fails the test with its own last words, whatever the test saw of it.
    if (died.length > 0)
      throw new Error(
        died
          .map(
            (s) =>
              `the server ended by itself (${s.child.exitCode ?? s.child.signalCode}):\n${s.output().slice(-3000)}`,
          )
          .join('\n'),
      );
  });

  async function start(
    nodeArgs: string[] = [],
  ): Promise<{ server: Running; url: string; env: Record<string, string> }> {
    const dir = tempDir('kora-runtime-');
    dirs.push(dir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: join(dir.path, 'data'),
      DEV_OUTBOX: 'on',
      HEALTH_MIN_FREE_MB: '1',
      DEMO_CACHE_DIR: demoCache.path,
      // A clean stop waits for work under way (the demo material, made at first start): slower under forced collections.
      SHUTDOWN_TIMEOUT_MS: '60000',
    };
    const server = run(env, nodeArgs);
    servers.push(server);
    await waitFor(() => server.output().includes('Kora is listening') || server.child.exitCode !== null, 30_000);
    expect({ exitCode: server.child.exitCode, signal: server.child.signalCode }).toEqual({
      exitCode: null,
      signal: null,
    });
    return { server, url, env };
  }

  it('starts, lets a person sign up and hear the preview of an upload, then stops cleanly on SIGTERM', async () => {
    const { server, url } = await start();
    const person = {
      email: 'mariama.sow@example.sn',
      password: 'Teranga-2026!',
      firstName: 'Mariama',
      lastName: 'Sow',
    };
    const tokens = await new OidcTestClient(url).signUp(person);
    const signedUp = await request(url)
      .post('/api/auth/signup')
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .set('Accept-Language', 'fr-SN');
    expect(signedUp.status).toBe(200);
    await masterToPreview(url, tokens.access_token, 'premier-son.wav');
    await stopCleanly(server);
  }, 120_000);

  it('keeps running while accounts made by another process are read by every projection, garbage collected throughout', async () => {
    const { server, url, env } = await start(COLLECT_OFTEN);
    for (const name of ['awa', 'moussa', 'fatou']) {
      // `npm run users -- create` from another process: the append lands in the log behind the server's back.
      const token = userToken(env, `${name}@example.sn`);
      // Answered once the account's events have been through the read models.
      await waitFor(async () => {
        const profile = await fetch(`${url}/api/user/profile`, { headers: { Authorization: `Bearer ${token}` } });
        return profile.status === 200 || server.child.exitCode !== null || server.child.signalCode !== null;
      }, 20_000);
      expect({ signal: server.child.signalCode, fatal: FATAL.exec(server.output())?.[0] ?? null }).toEqual({
        signal: null,
        fatal: null,
      });
    }
    // Collections go on for a while after the last read.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(server.child.exitCode).toBeNull();
    await stopCleanly(server);
  }, 120_000);
});
