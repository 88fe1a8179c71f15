import { afterAll, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegLoudness } from '../eval/metrics';
import { syntheticBand } from '../eval/signals';
import { findTool, identifyTool, npmTool, resolveTool, systemTool } from '../src/io/tools';
import { tempDir, writePcm } from './support/media';

const tmp = tempDir('kora-tools-');
afterAll(() => tmp.cleanup());

/** A fake tool in its own directory: a shell script that prints what `-version` prints. */
function fakeTool(dir: string, name: string, versionLine: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho '${versionLine}'\necho 'configuration: --enable-gpl'\n`);
  chmodSync(path, mode);
  return path;
}

// The optional dependencies ship binaries for these platforms only; elsewhere npm installs none.
const shipsBinaries = ['linux-x64', 'linux-arm64', 'linux-ia32', 'linux-arm', 'darwin-x64', 'darwin-arm64'].includes(
  `${process.platform}-${process.arch}`,
);

describe('which ffmpeg and ffprobe run', () => {
  it('takes FFMPEG_PATH / FFPROBE_PATH as given, even a path that does not exist (it fails where it runs)', () => {
    expect(resolveTool('ffmpeg', '/opt/ffmpeg/bin/ffmpeg')).toEqual({
      tool: 'ffmpeg',
      path: '/opt/ffmpeg/bin/ffmpeg',
      source: 'env',
    });
    expect(findTool('ffprobe', { override: '/nonexistent/ffprobe', path: '' })).toMatchObject({ source: 'env' });
  });

  it("prefers the system's binary: the first executable file on the PATH, skipping plain files and folders", () => {
    const notExecutable = join(tmp.dir, 'a');
    fakeTool(notExecutable, 'ffmpeg', 'ffmpeg version 0.0', 0o644);
    const folder = join(tmp.dir, 'b');
    mkdirSync(join(folder, 'ffmpeg'), { recursive: true });
    const real = fakeTool(join(tmp.dir, 'c'), 'ffmpeg', 'ffmpeg version 9.9-test');
    fakeTool(join(tmp.dir, 'd'), 'ffmpeg', 'ffmpeg version 1.0'); // a later one: not taken
    const path = [notExecutable, folder, join(tmp.dir, 'c'), join(tmp.dir, 'd')].join(':');
    expect(systemTool('ffmpeg', path)).toEqual({ tool: 'ffmpeg', path: real, source: 'system' });
    expect(findTool('ffmpeg', { path })?.path).toBe(real);
  });

  (shipsBinaries ? it : it.skip)(
    'falls back to the binaries the optional npm packages ship when the PATH has none, and they run',
    async () => {
      const empty = join(tmp.dir, 'empty');
      mkdirSync(empty, { recursive: true });
      for (const tool of ['ffmpeg', 'ffprobe'] as const) {
        const found = findTool(tool, { path: empty });
        expect(found).toMatchObject({
          tool,
          source: 'npm',
          package: `@${tool}-installer/${process.platform}-${process.arch}`,
        });
        expect(found?.path).toContain(`node_modules/@${tool}-installer/${process.platform}-${process.arch}/${tool}`);
        const identity = await identifyTool(found!);
        expect(identity.version).toMatch(/\d/);
      }
    },
  );

  it('finds no npm binary for a platform nobody ships one for', () => {
    expect(npmTool('ffmpeg', 'aix', 'ppc64')).toBeUndefined();
  });

  it('reads the version a binary prints, and rejects one that prints none or cannot be run', async () => {
    const good = fakeTool(join(tmp.dir, 'v1'), 'ffmpeg', 'ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2025');
    await expect(identifyTool({ tool: 'ffmpeg', path: good, source: 'env' })).resolves.toMatchObject({
      version: '5.1.9-0+deb12u1',
      path: good,
      source: 'env',
    });
    const liar = fakeTool(join(tmp.dir, 'v2'), 'ffprobe', 'ffmpeg version 5.1.9');
    await expect(identifyTool({ tool: 'ffprobe', path: liar, source: 'system' })).rejects.toThrow(
      'did not report a ffprobe version',
    );
    await expect(identifyTool({ tool: 'ffmpeg', path: join(tmp.dir, 'missing'), source: 'env' })).rejects.toThrow(
      /ENOENT/,
    );
  });

  const system = systemTool('ffmpeg');
  const npm = npmTool('ffmpeg');
  (system && npm ? it : it.skip)(
    "the eval's meter reads the same loudness and true peak through the system's ffmpeg and the npm-shipped one",
    async () => {
      const file = await writePcm(join(tmp.dir, 'band.wav'), syntheticBand({ sampleRate: 44100, seconds: 8 }), 'pcm16');
      const saved = process.env.FFMPEG_PATH;
      try {
        process.env.FFMPEG_PATH = system!.path;
        const theirs = await ffmpegLoudness(file);
        process.env.FFMPEG_PATH = npm!.path;
        const shipped = await ffmpegLoudness(file);
        expect(Number.isFinite(shipped.truePeakDbtp)).toBe(true);
        expect(Math.abs(shipped.truePeakDbtp - theirs.truePeakDbtp)).toBeLessThan(0.01);
        expect(Math.abs(shipped.integratedLufs - theirs.integratedLufs)).toBeLessThan(0.01);
      } finally {
        if (saved === undefined) delete process.env.FFMPEG_PATH;
        else process.env.FFMPEG_PATH = saved;
      }
    },
  );
});
