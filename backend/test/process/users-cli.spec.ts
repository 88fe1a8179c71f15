import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from '@jest/globals';
import { jwtPayload } from '../support/oidc-client';
import { freePort } from '../support/test-app';
import { tempDir } from '../support/temp';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const USERS = join(__dirname, '..', '..', 'dist', 'cli', 'users.js');
const run = promisify(execFile);

describe('the users command line beside a running server', () => {
  const dirs: Array<{ cleanup: () => void }> = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  it('prints a token the server accepts without being told its PORT or PUBLIC_URL', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const port = await freePort();
    const base = { PATH: process.env.PATH ?? '', DATA_DIR: dir.path, DEMO_TRACKS: 'off', LOG_LEVEL: 'warn' };
    // `PORT=<port> npm start`: no PUBLIC_URL, so the issuer is http://localhost:<port>/oidc.
    const server = spawn(process.execPath, [MAIN], {
      env: { ...base, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!output.includes('Kora is listening')) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const info = JSON.parse(readFileSync(join(dir.path, 'server.json'), 'utf8'));
    expect(info).toMatchObject({
      publicUrl: `http://localhost:${port}`,
      issuer: `http://localhost:${port}/oidc`,
      provider: 'built-in',
    });

    // `npm run users -- create/token a@b.c`, with the server's DATA_DIR only.
    await run(process.execPath, [USERS, 'create', 'ops@example.sn', 'ops-password-1'], { env: base });
    const { stdout } = await run(process.execPath, [USERS, 'token', 'ops@example.sn'], { env: base });
    const token = stdout.trim();
    expect(jwtPayload(token)).toMatchObject({
      iss: `http://localhost:${port}/oidc`,
      aud: `http://localhost:${port}/api`,
    });
    const profile = await fetch(`http://127.0.0.1:${port}/api/user/profile`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { profile: { email: string } }).profile.email).toBe('ops@example.sn');

    // A PORT that is not the server's does not change the issuer: the server's record wins, and the command says so.
    const other = await run(process.execPath, [USERS, 'token', 'ops@example.sn'], { env: { ...base, PORT: '9' } });
    expect(other.stderr).toContain(`Using the issuer of the server started on ${dir.path}`);
    const again = await fetch(`http://127.0.0.1:${port}/api/user/profile`, {
      headers: { Authorization: `Bearer ${other.stdout.trim()}` },
    });
    expect(again.status).toBe(200);

    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }, 60_000);
});
