/**
 * Decoding any accepted input to planar 32-bit float PCM through ffmpeg (`-f f32le` on a pipe), deinterleaved as it
 * streams in so the whole interleaved file never sits in memory twice; a plain WAV that needs no change is read
 * directly, to the same samples (`wav-read.ts`). Optional resampling uses ffmpeg's soxr at
 * 28-bit precision; optional channel count uses ffmpeg's standard downmix matrix.
 */
import { DecodeFailedError, EmptyInputError, TruncatedInputError } from '../errors';
import type { StageContext, Tick } from '../stage/context';
import type { Pcm } from '../pcm';
import { probe as probeFile, type ProbeResult } from './probe';
import { PlanarCollector } from './planar';
import { runTool, stderrTail } from './tools';
import { directWav, readWavDirect } from './wav-read';

export interface DecodeOptions {
  /** Output sample rate (resampled with soxr when it differs from the file's). Default: the file's. */
  sampleRate?: number;
  /** Output channel count (ffmpeg downmix/upmix). Default: the file's. */
  channels?: number;
  /** A probe result already obtained for this file (saves a second ffprobe run). */
  probe?: ProbeResult;
  /** Through ffmpeg even a WAV `wav-read.ts` reads itself (the tests compare both paths). */
  viaFfmpeg?: boolean;
  ctx?: StageContext;
  tick?: Tick;
}

/**
 * Decodes the first audio stream of `file`. Fails with ENGINE.EMPTY_INPUT when no sample comes out,
 * ENGINE.TRUNCATED_INPUT when the decoded duration falls short of a duration the container declares exactly,
 * ENGINE.DECODE_FAILED when ffmpeg reports an error.
 */
export async function decodeAudio(
  file: string,
  options: DecodeOptions = {},
): Promise<{ pcm: Pcm; probe: ProbeResult }> {
  const { ctx, tick } = options;
  const info = options.probe ?? (await probeFile(file, ctx));
  if (!info.hasAudio) throw new DecodeFailedError('the file has no audio stream');
  const sourceRate = info.sampleRate ?? 48_000;
  const sampleRate = options.sampleRate ?? sourceRate;
  const channelCount = options.channels ?? info.channels ?? 2;
  const direct = options.viaFfmpeg ? null : directWav(info, sampleRate, channelCount);
  if (direct) {
    const channels = await readWavDirect(file, direct, { ctx, tick });
    if (tick) await tick(1);
    return { pcm: { sampleRate, channels }, probe: info };
  }
  const expectedFrames = Math.max(0, info.audioDurationSec) * sampleRate;
  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-i', file, '-map', '0:a:0', '-vn', '-sn', '-dn'];
  args.push('-ac', String(channelCount));
  if (sampleRate !== sourceRate) args.push('-af', `aresample=${sampleRate}:resampler=soxr:precision=28`);
  args.push('-f', 'f32le', '-acodec', 'pcm_f32le', 'pipe:1');
  const collector = new PlanarCollector(channelCount, expectedFrames);
  let lastTick = 0;
  let pendingTick: Promise<void> | null = null;
  const run = await runTool('ffmpeg', args, {
    ctx,
    onStdout: (chunk) => {
      collector.push(chunk);
      if (tick && expectedFrames > 0 && !pendingTick) {
        const f = Math.min(0.99, collector.framesCollected / expectedFrames);
        if (f - lastTick >= 0.02) {
          lastTick = f;
          pendingTick = tick(f)
            .catch(() => undefined)
            .finally(() => {
              pendingTick = null;
            });
        }
      }
    },
  });
  ctx?.throwIfCancelled();
  if (run.code !== 0) {
    if (/partial file|moov atom not found/i.test(run.stderr)) {
      throw new TruncatedInputError('the container ends before its data', { detail: stderrTail(run.stderr) });
    }
    throw new DecodeFailedError(`ffmpeg exited with code ${String(run.code)}`, { detail: stderrTail(run.stderr) });
  }
  const channels = collector.result();
  const frames = channels[0]?.length ?? 0;
  if (frames === 0) throw new EmptyInputError('the audio stream holds no samples');
  const decodedSec = frames / sampleRate;
  if (/partial file/i.test(run.stderr)) {
    throw new TruncatedInputError('the container ends before its data', { detail: stderrTail(run.stderr) });
  }
  const declared = info.audioDurationSec;
  if (info.durationIsExact && declared > 0) {
    const shortfall = declared - decodedSec;
    if (shortfall > Math.max(0.25, 0.02 * declared)) {
      throw new TruncatedInputError(
        `decoded ${decodedSec.toFixed(2)} s of the ${declared.toFixed(2)} s the container declares`,
        { declaredSec: declared, decodedSec },
      );
    }
  }
  if (tick) await tick(1);
  return { pcm: { sampleRate, channels }, probe: info };
}
