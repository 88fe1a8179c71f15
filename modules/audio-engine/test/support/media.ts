/** Test media built on the fly with ffmpeg (and the engine's own WAV writer) in a temporary directory. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolPath } from '../../src/io/tools';
import { writeWav, type WavEncoding } from '../../src/io/wav';
import type { Pcm } from '../../src/pcm';

export function tempDir(prefix = 'kora-engine-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function ffmpeg(args: string[]): void {
  execFileSync(toolPath('ffmpeg'), ['-hide_banner', '-v', 'error', '-y', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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
