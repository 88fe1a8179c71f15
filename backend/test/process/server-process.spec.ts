import { type ChildProcess, execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from '@jest/globals';
import { freePort, run, USERS, waitFor } from '../support/server-process';
import { tempDir } from '../support/temp';

describe('the server process', () => {
  const dirs: Array<{ cleanup: () => void }> = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  it('creates its data directory, serves, and on SIGTERM drains, closes the stores and exits 0', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const port = await freePort();
    const dataDir = join(dir.path, 'nested', 'data');
    const env = { PATH: process.env.PATH ?? '', PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' };
    // The operator commands create a user and print an API token for it, before the server starts.
    execFileSync(process.execPath, [USERS, 'create', 'ops@example.sn', 'ops-password-1'], { env, stdio: 'pipe' });
    const token = execFileSync(process.execPath, [USERS, 'token', 'ops@example.sn'], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const server = run(env);
    children.push(server.child);
    await waitFor(() => server.output().includes('Kora is listening'));

    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    // An open socket and a keep-alive connection must not hold the shutdown up.
    const profile = await fetch(`http://127.0.0.1:${port}/api/user/profile`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(profile.status).toBe(200);
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });

    // A connection a browser opened ahead and never used (it sends nothing): Node would wait for its first request.
    const unused = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      unused.once('connect', resolve);
      unused.once('error', reject);
    });
    unused.on('error', () => undefined);

    const started = Date.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    socket.disconnect();
    unused.destroy();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    const log = server.output();
    expect(log.indexOf('shutting down')).toBeLessThan(log.indexOf('stores closed'));
    expect(log).toContain('shutdown complete');
    const lines = log
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  }, 30_000);

  it('refuses to start on bad configuration, one line per bad variable', async () => {
    const server = run({ PORT: 'eighty', LOG_LEVEL: 'chatty' });
    children.push(server.child);
    const { code } = await server.exited;
    expect(code).toBe(1);
    const lines = server.output().trim().split('\n');
    expect(lines[0]).toBe('Invalid configuration:');
    expect(
      lines
        .slice(1)
        .map((line) => line.trim().split(':')[0])
        .sort(),
    ).toEqual(['LOG_LEVEL', 'PORT']);
  });

  it('refuses the user commands when an external issuer is configured', () => {
    const dir = tempDir();
    dirs.push(dir);
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [USERS, 'token', 'ops@example.sn'], {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dir.path, OIDC_ISSUER_URL: 'https://kora.eu.auth0.com/' },
        stdio: 'pipe',
      });
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(3);
    expect(stderr).toContain('Refused: the API trusts the external issuer https://kora.eu.auth0.com/');
  });
});
