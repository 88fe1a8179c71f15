import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { freePort, run, userToken, waitFor } from '../support/server-process';
import { tempDir } from '../support/temp';

/**
 * What `npm install && npm start` gives a machine with Node alone: the built server (as `npm start` runs it) with a
 * PATH holding only node, npm and the shell's basics, so no ffmpeg or ffprobe from the system. The engine must find
 * the binaries the optional npm packages ship, say so in `/api/health` and the log, and master an upload end to end.
 */

const BASICS = ['sh', 'bash', 'env', 'cat', 'ls', 'mkdir', 'rm', 'cp', 'mv', 'chmod', 'uname', 'id', 'dirname'];
const OPS_TOKEN = 'bare-machine-ops-token-0123456789';

/** A directory of symlinks to node, npm and the basic commands: the PATH of a machine where only Node was installed. */
function barePath(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  const npm = [
    join(process.execPath, '..', 'npm'),
    ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'npm')),
  ]
    .filter((path) => existsSync(path))
    .at(0);
  if (npm) symlinkSync(npm, join(bin, 'npm'));
  for (const name of BASICS) {
    const found = ['/usr/bin', '/bin'].map((d) => join(d, name)).find((path) => existsSync(path));
    if (found) symlinkSync(found, join(bin, name));
  }
  return bin;
}

/**
 * A 12-second 44.1 kHz 16-bit stereo WAV (2.1 MB) of music-like sound made here, without ffmpeg: a chord whose notes
 * pulse at different rates, a decaying low kick every half second and a little noise, different left and right.
 */
function musicWav(seconds = 12, sampleRate = 44_100): Buffer {
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

describe('a machine with Node alone', () => {
  const dirs: Array<{ cleanup: () => void }> = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  it('serves a healthy /api/health on the npm-shipped ffmpeg and ffprobe, and masters an upload to its preview', async () => {
    const dir = tempDir('kora-bare-');
    dirs.push(dir);
    const bin = barePath(dir.path);
    expect(existsSync(join(bin, 'ffmpeg')) || existsSync(join(bin, 'ffprobe'))).toBe(false);
    const port = await freePort();
    const env = {
      PATH: bin,
      HOME: dir.path,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dir.path, 'data'),
      OPS_TOKEN,
      HEALTH_MIN_FREE_MB: '1',
    };
    const token = userToken(env, 'bare@example.sn');
    const server = run(env);
    children.push(server.child);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(() => server.output().includes('Kora is listening'), 20_000);

    const health = await fetch(`${url}/api/health`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } });
    const report = (await health.json()) as {
      status: string;
      checks: Record<string, { status: string; source?: string; path?: string; version?: string; package?: string }>;
    };
    expect({ status: health.status, body: report.status }).toEqual({ status: 200, body: 'ok' });
    const platform = `${process.platform}-${process.arch}`;
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      expect(report.checks[tool]).toMatchObject({
        status: 'up',
        source: 'npm',
        package: `@${tool}-installer/${platform}`,
        version: expect.stringMatching(/\d/),
      });
      expect(report.checks[tool]!.path).toContain(`node_modules/@${tool}-installer/${platform}/${tool}`);
    }
    // The start-up log says which binaries run, one line each.
    await waitFor(() => /ffprobe .*, shipped by npm: /.test(server.output()), 5_000);
    expect(server.output()).toMatch(/"tool":"ffmpeg".*"source":"npm".*ffmpeg \S+, shipped by npm: \//);

    const wav = musicWav();
    expect(wav.length).toBeGreaterThan(1024 * 1024);
    const form = new FormData();
    form.append('service', 'AI_MASTERING');
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'bare-machine.wav');
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

    // The preview the npm-shipped ffmpeg cut: a real MP3 (an ID3 tag or an MPEG frame sync), several seconds of it.
    const preview = await fetch(`${url}/api/audio/track/${track.id}/stream/preview`, { headers: auth });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = Buffer.from(await preview.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(50_000);
    expect(mp3.subarray(0, 3).toString('latin1') === 'ID3' || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(
      true,
    );
    expect(server.output()).not.toMatch(/ENOENT|TOOL_MISSING/);
  }, 75_000);
});
