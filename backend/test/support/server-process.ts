import { expect } from '@jest/globals';
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

/** Starts the built server as a child process with exactly `env` (and PATH), `nodeArgs` before its script. */
export function run(env: Record<string, string>, nodeArgs: string[] = []): Running {
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
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
  // Its stdout is the token and nothing else (logs go to stderr): `T=$(users token …)` must work as it is.
  if (!/^[\w-]+\.[\w-]+\.[\w-]+\n?$/.test(printed)) throw new Error(`not just a token on stdout:\n${printed}`);
  return printed.trim();
}

/**
 * A 12-second 44.1 kHz 16-bit stereo WAV (2.1 MB) of music-like sound made here, without ffmpeg: a chord whose notes
 * pulse at different rates, a decaying low kick every half second and a little noise, different left and right.
 */
export function musicWav(seconds = 12, sampleRate = 44_100): Buffer {
  const frames = seconds * sampleRate;
  const data = Buffer.alloc(frames * 4);
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff - 0.5;
  };
  for (let i = 0; i < frames; i += 1) {
    const t = i / sampleRate;
    const beat = t % 0.5;
    const kick = Math.sin(2 * Math.PI * (60 - 40 * beat) * beat) * Math.exp(-beat * 12) * 0.5;
    const chord = [220, 277.18, 329.63, 440].reduce(
      (sum, f, n) => sum + Math.sin(2 * Math.PI * f * t) * (0.5 + 0.5 * Math.sin(2 * Math.PI * (0.5 + n) * t)) * 0.12,
      0,
    );
    const left = chord + kick + noise() * 0.03;
    const right = chord * 0.8 + kick + noise() * 0.03 + Math.sin(2 * Math.PI * 659.25 * t) * 0.05;
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, left)) * 32_767), i * 4);
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, right)) * 32_767), i * 4 + 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * Uploads a 12-second song (`musicWav`) to AI mastering on a running server as the holder of `token`, waits for its
 * preview and checks it is a real MP3 (an ID3 tag or an MPEG frame sync) of several seconds; answers its bytes.
 */
export async function masterToPreview(url: string, token: string, fileName: string): Promise<Buffer> {
  const wav = musicWav();
  expect(wav.length).toBeGreaterThan(1024 * 1024);
  const form = new FormData();
  form.append('service', 'AI_MASTERING');
  form.append('file', new Blob([wav], { type: 'audio/wav' }), fileName);
  const auth = { Authorization: `Bearer ${token}` };
  const uploaded = await fetch(`${url}/api/audio/upload`, { method: 'POST', headers: auth, body: form });
  const track = (await uploaded.json()) as { id: string; format: string };
  expect({ status: uploaded.status, format: track.format }).toEqual({ status: 201, format: 'wav' });

  let status: { status: string; errorCode?: string | null } = { status: 'PROCESSING' };
  await waitFor(async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = await fetch(`${url}/api/audio/track/${track.id}/status`, { headers: auth });
    status = (await answer.json()) as typeof status;
    return status.status === 'PREVIEW_READY' || status.status === 'FAILED';
  }, 45_000);
  expect(status).toMatchObject({ status: 'PREVIEW_READY' });

  const preview = await fetch(`${url}/api/audio/track/${track.id}/stream/preview`, { headers: auth });
  expect(preview.status).toBe(200);
  expect(preview.headers.get('content-type')).toBe('audio/mpeg');
  const mp3 = Buffer.from(await preview.arrayBuffer());
  expect(mp3.length).toBeGreaterThan(50_000);
  expect(mp3.subarray(0, 3).toString('latin1') === 'ID3' || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(true);
  return mp3;
}
