import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';

/** Where test media made once are kept: the Jest run's own folder (its global setup), else the machine's. */
const CACHE = process.env.KORA_TEST_MEDIA_CACHE ?? join(tmpdir(), 'kora-test-media');

/** Whether every input of `args` is synthesised by lavfi (no file read: the output depends on the arguments only). */
function synthesisedOnly(args: readonly string[]): boolean {
  return args.every((arg, index) => args[index - 1] !== '-i' || args[index - 2] === 'lavfi');
}

/**
 * Runs `ffmpeg` with `args`, its output written to `out`. Debian's ffmpeg links 215 libraries, and its dynamic loader
 * alone costs 0.1-0.3 s of CPU at every start, while the suites make the same synthetic test files again and again
 * across their files. So a command whose inputs are all synthesised (`-f lavfi`) is run once per test run: its output
 * is kept in the run's folder, keyed by the arguments and the ffmpeg binary (path, size, time), written aside
 * and renamed into place, and copied from there the next times. A command reading a file runs as it is.
 */
export function ffmpegTo(ffmpeg: string, args: readonly string[], out: string): void {
  if (!synthesisedOnly(args)) {
    execFileSync(ffmpeg, [...args, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return;
  }
  const binary = statSync(ffmpeg);
  const key = createHash('sha256')
    .update(JSON.stringify([ffmpeg, binary.size, binary.mtimeMs, args]))
    .digest('hex')
    .slice(0, 32);
  const ext = extname(out);
  const cached = join(CACHE, `${key}${ext}`);
  if (!existsSync(cached)) {
    mkdirSync(CACHE, { recursive: true });
    // ffmpeg picks the format by the extension: the temporary name keeps it.
    const making = join(CACHE, `.${key}-${process.pid}-${Date.now()}${ext}`);
    try {
      execFileSync(ffmpeg, [...args, making], { stdio: ['ignore', 'ignore', 'pipe'] });
      renameSync(making, cached);
    } finally {
      rmSync(making, { force: true });
    }
  }
  copyFileSync(cached, out);
}
