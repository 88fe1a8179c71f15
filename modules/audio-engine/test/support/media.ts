/** Test media built on the fly with ffmpeg (and the engine's own WAV writer) in a temporary directory. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolPath } from '../../src/io/tools';
import { ffmpegTo } from './media-cache';
import { writeWav, type WavEncoding } from '../../src/io/wav';
import type { Pcm } from '../../src/pcm';

export function tempDir(prefix = 'kora-engine-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs ffmpeg; the last argument is the file it writes (made once per test run when synthesised: `ffmpegTo`). */
export function ffmpeg(args: string[]): void {
  ffmpegTo(toolPath('ffmpeg'), ['-hide_banner', '-v', 'error', '-y', ...args.slice(0, -1)], args.at(-1)!);
}

export function ffprobeJson(file: string): {
  streams: Array<Record<string, string | number>>;
  format: Record<string, string>;
} {
  return JSON.parse(
    execFileSync(toolPath('ffprobe'), ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], {
      encoding: 'utf8',
    }),
  ) as { streams: Array<Record<string, string | number>>; format: Record<string, string> };
}

export async function writePcm(path: string, pcm: Pcm, encoding: WavEncoding = 'float32'): Promise<string> {
  await writeWav(path, pcm, { encoding, dither: false });
  return path;
}

/** A short synthetic speech recording from ffmpeg's built-in flite voice (16 kHz, resampled as asked). */
export function speech(path: string, text: string, sampleRate = 48000): string {
  ffmpeg(['-f', 'lavfi', '-i', `flite=text='${text}':voice=slt`, '-ar', String(sampleRate), '-ac', '1', path]);
  return path;
}
