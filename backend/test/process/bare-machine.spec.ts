import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { freePort, masterToPreview, run, userToken, waitFor } from '../support/server-process';
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

    // The preview the npm-shipped ffmpeg cut.
    await masterToPreview(url, token, 'bare-machine.wav');
    expect(server.output()).not.toMatch(/ENOENT|TOOL_MISSING/);
  }, 75_000);
});
