import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The built server and command lines, as `npm start` runs them (the global setup builds them once). */
export const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
export const USERS = join(__dirname, '..', '..', 'dist', 'cli', 'users.js');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built server as a child process with exactly `env` (and PATH). */
export function run(env: Record<string, string>): Running {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Creates a user with the operator command and prints an API token for it (before or while the server runs). */
export function userToken(env: Record<string, string>, email: string, password = 'fault-password-1'): string {
  execFileSync(process.execPath, [USERS, 'create', email, password], { env, stdio: 'pipe' });
  const printed = execFileSync(process.execPath, [USERS, 'token', email, '--minutes', '120'], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  // The token is the one line that is a JWT (log lines may surround it).
  const token = printed.split('\n').find((line) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(line.trim()));
  if (!token) throw new Error(`no token printed:\n${printed}`);
  return token.trim();
}
