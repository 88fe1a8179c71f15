import { toolPath } from '@kora/audio-engine';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Seconds of the free preview of an enhanced file. */
export const PREVIEW_SECONDS = 30;

/**
 * The free preview of an enhanced file: its first 30 seconds (speech has no chorus to look for), as a 192 kb/s
 * MP3, or for a video as an MP4 re-encoded at a modest quality so it plays in every browser.
 */
export async function makePreview(
  enhanced: string,
  workDir: string,
  isVideo: boolean,
  signal: AbortSignal,
): Promise<{ path: string; contentType: string }> {
  const path = join(workDir, isVideo ? 'preview.mp4' : 'preview.mp3');
  const codec = isVideo
    ? [
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '28',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '160k',
        '-movflags',
        '+faststart',
      ]
    : ['-vn', '-c:a', 'libmp3lame', '-b:a', '192k'];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      toolPath('ffmpeg'),
      ['-hide_banner', '-loglevel', 'error', '-y', '-i', enhanced, '-t', String(PREVIEW_SECONDS), ...codec, path],
      {
        signal,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg preview failed: ${stderr.slice(-300)}`)),
    );
  });
  return { path, contentType: isVideo ? 'video/mp4' : 'audio/mpeg' };
}
