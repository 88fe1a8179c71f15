/**
 * Encoding through ffmpeg: MP3 from PCM piped as f32le, and re-muxing an enhanced audio track into the original
 * video container with every video (and subtitle) stream copied bit for bit.
 */
import { EncodeFailedError } from '../errors';
import type { StageContext, Tick } from '../stage/context';
import { type Pcm, frameCount, interleave } from '../pcm';
import type { Container } from './probe';
import { runTool, stderrTail } from './tools';

/** Interleaved float32 little-endian chunks of ~1 MB, for ffmpeg's stdin. */
export function* pcmChunks(pcm: Pcm, tick?: Tick): Generator<Uint8Array> {
  const n = frameCount(pcm);
  const frames = Math.max(1, Math.floor(262144 / pcm.channels.length));
  for (let s = 0; s < n; s += frames) {
    const e = Math.min(n, s + frames);
    const data = interleave(pcm.channels, s, e);
    if (tick) void tick(e / n).catch(() => undefined);
    yield new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
}

function inputArgs(pcm: Pcm): string[] {
  return ['-f', 'f32le', '-ar', String(pcm.sampleRate), '-ac', String(pcm.channels.length), '-i', 'pipe:0'];
}

/** Encodes `pcm` to a constant-bit-rate MP3 (LAME) at `path`. */
export async function encodeMp3(pcm: Pcm, path: string, ctx?: StageContext, bitrate = '192k'): Promise<void> {
  const args = ['-hide_banner', '-v', 'error', '-y', ...inputArgs(pcm)];
  args.push('-c:a', 'libmp3lame', '-b:a', bitrate, '-id3v2_version', '3', '-f', 'mp3', path);
  const run = await runTool('ffmpeg', args, { ctx, stdin: pcmChunks(pcm) });
  if (run.code !== 0) throw new EncodeFailedError('MP3 encoding failed', { detail: stderrTail(run.stderr) });
}

interface MuxTarget {
  format: string;
  audioCodec: string[];
  extra: string[];
}

function muxTarget(container: Container): MuxTarget {
  switch (container) {
    case 'mp4':
      return { format: 'mp4', audioCodec: ['-c:a', 'aac', '-b:a', '192k'], extra: ['-movflags', '+faststart'] };
    case 'm4v':
      return { format: 'ipod', audioCodec: ['-c:a', 'aac', '-b:a', '192k'], extra: ['-movflags', '+faststart'] };
    case 'mov':
      return { format: 'mov', audioCodec: ['-c:a', 'aac', '-b:a', '192k'], extra: ['-movflags', '+faststart'] };
    case 'mpeg-ps':
      return { format: 'mpeg', audioCodec: ['-c:a', 'mp2', '-b:a', '224k'], extra: [] };
    case 'mpeg-ts':
      return { format: 'mpegts', audioCodec: ['-c:a', 'aac', '-b:a', '192k'], extra: [] };
    default:
      throw new EncodeFailedError(`cannot write a ${container} container`);
  }
}

/**
 * Writes `outPath` (container `container`) with the video and subtitle streams of `original` copied untouched and
 * the audio taken from the PCM `audio` (encoded to the container's usual codec: AAC for MP4/MOV/M4V/TS, MPEG-1 Layer
 * II for MPEG program streams).
 */
export async function muxVideo(
  original: string,
  audio: Pcm,
  container: Container,
  outPath: string,
  ctx?: StageContext,
): Promise<void> {
  const target = muxTarget(container);
  const args = ['-hide_banner', '-v', 'error', '-y', '-i', original, ...inputArgs(audio)];
  args.push('-map', '0:v', '-map', '1:a:0', '-map', '0:s?', '-c:v', 'copy', '-c:s', 'copy', ...target.audioCodec);
  args.push('-map_metadata', '0', ...target.extra, '-f', target.format, outPath);
  const run = await runTool('ffmpeg', args, { ctx, stdin: pcmChunks(audio) });
  if (run.code !== 0)
    throw new EncodeFailedError('muxing the enhanced audio failed', { detail: stderrTail(run.stderr) });
}
