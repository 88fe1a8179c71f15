/**
 * Whether and how a file is compressed before its upload, streamed a slice at a time so that a 200 MB WAV is never
 * held whole (the FLAC it becomes is, as Blob parts the browser may keep on disk). Runs in the worker
 * (`flac.worker.ts`); plain enough to run in Node for the tests.
 *
 * Only a WAV is compressed, and only when it pays: not under `minBytes`, not when the first seconds code to more
 * than `maxRatio` of their size (noise, or already-compressed audio in a WAV), not when the device encodes too slowly
 * for the bytes it saves to be worth the wait, and not when the samples are not integers FLAC can store exactly
 * (floats off the 24-bit grid): then the WAV goes as it is, which is exact by definition.
 */
import { FlacEncoder } from './encoder';
import { parseWav, readSamples, type WavFormat, type WavProblem } from './wav';

const MB = 1024 * 1024;

export type SkipReason =
  /** Not a WAV (an MP3, a video): already compressed or not ours to touch. */
  | 'not-wav'
  /** Under `minBytes`: the time to compress would be longer than the time saved. */
  | 'small'
  /** A WAV we do not compress: see WavProblem. */
  | Exclude<WavProblem, 'not-wav'>
  /** More than 2 channels: FLAC's channel layouts and the WAV's may not match in the server's downmix. */
  | 'channels'
  /** Samples FLAC cannot hold exactly (arbitrary floats, 32-bit integers using their low byte). */
  | 'not-integer'
  /** The audio compresses to more than `maxRatio` of its size. */
  | 'no-gain'
  /** The device encodes too slowly for the saving to be worth it. */
  | 'slow';

export interface CompressProgress {
  /** WAV sample bytes read and encoded so far, and in all. */
  readBytes: number;
  totalBytes: number;
  /** FLAC bytes produced so far (the final size once `readBytes` reaches `totalBytes`). */
  flacBytes: number;
}

export interface CompressOptions {
  signal?: AbortSignal;
  onProgress?: (progress: CompressProgress) => void;
  /** Files under this are sent as they are (default 1 MB). */
  minBytes?: number;
  /** Give up when the stream so far is over this share of the WAV (default 0.9). */
  maxRatio?: number;
  /** Audio read before the first verdict on ratio and speed (default 10 s). */
  probeSeconds?: number;
  /**
   * The upload speed assumed to weigh the encoding time against the bytes it saves (default 4 Mbit/s, a phone's
   * uplink; the uploader may pass what it measured). Compression stops when it would take longer than it saves.
   */
  uplinkBytesPerSecond?: number;
  /** The clock, in milliseconds (injected in tests). */
  now?: () => number;
  /** Encoder settings (tests and benchmarks). */
  maxLpcOrder?: number;
}

export type CompressResult =
  | {
      compressed: true;
      /** The FLAC stream, type audio/flac. */
      blob: Blob;
      /** FLAC bytes over the WAV's bytes. */
      ratio: number;
      format: WavFormat;
      /** Time from the call to the result. */
      elapsedMs: number;
    }
  | { compressed: false; reason: SkipReason; ratio: 1; format: WavFormat | null; elapsedMs: number };

/** Frames read and encoded per slice: 64 blocks, 1.5 MB of 24-bit stereo. */
const SLICE_FRAMES = 4096 * 64;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The compression was aborted.', 'AbortError');
}

export async function compressWav(file: Blob, options: CompressOptions = {}): Promise<CompressResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const minBytes = options.minBytes ?? MB;
  const maxRatio = options.maxRatio ?? 0.9;
  const probeSeconds = options.probeSeconds ?? 10;
  const uplink = options.uplinkBytesPerSecond ?? 500_000;
  const signal = options.signal;
  const skip = (reason: SkipReason, format: WavFormat | null = null): CompressResult => ({
    compressed: false,
    reason,
    ratio: 1,
    format,
    elapsedMs: now() - started,
  });
  const read = async (offset: number, length: number) => {
    if (signal?.aborted) throw abortError(signal);
    return new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
  };

  const parsed = await parseWav(read, file.size);
  if (!parsed.ok) return skip(parsed.problem === 'not-wav' ? 'not-wav' : parsed.problem);
  const format = parsed.format;
  if (file.size < minBytes) return skip('small', format);
  if (format.channels > 2) return skip('channels', format);

  const encoder = new FlacEncoder(
    { sampleRate: format.sampleRate, channels: format.channels, bitsPerSample: format.flacBitsPerSample },
    { maxLpcOrder: options.maxLpcOrder },
  );
  const planes = Array.from({ length: format.channels }, () => new Int32Array(SLICE_FRAMES));
  const parts: Blob[] = [];
  let flacBytes = 0;
  let readBytes = 0;
  let judged = false;
  const probeBytes = Math.min(format.dataBytes, Math.ceil(probeSeconds * format.sampleRate) * format.blockAlign);
  const sliceBytes = SLICE_FRAMES * format.blockAlign;

  while (readBytes < format.dataBytes) {
    // The first slices stop at the end of the probe, where the verdict falls.
    const untilProbe = judged ? Infinity : probeBytes - readBytes;
    const length = Math.min(sliceBytes, format.dataBytes - readBytes, untilProbe > 0 ? untilProbe : Infinity);
    const bytes = await read(format.dataOffset + readBytes, length);
    if (bytes.length < length) return skip('truncated', format);
    if (!readSamples(format, bytes, planes)) return skip('not-integer', format);
    const encoded = encoder.write(planes, length / format.blockAlign);
    readBytes += length;
    if (encoded.length > 0) {
      parts.push(new Blob([encoded as Uint8Array<ArrayBuffer>]));
      flacBytes += encoded.length;
    }
    if (signal?.aborted) throw abortError(signal);
    if (!judged && readBytes >= probeBytes) {
      judged = true;
      const verdict = judge(readBytes, flacBytes, now() - started, maxRatio, uplink);
      if (verdict) return skip(verdict, format);
    }
    options.onProgress?.({ readBytes, totalBytes: format.dataBytes, flacBytes });
    // Lets the worker see an abort or the main thread's messages between slices.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (signal?.aborted) throw abortError(signal);
  const { header, tail } = encoder.finish();
  if (tail.length > 0) parts.push(new Blob([tail as Uint8Array<ArrayBuffer>]));
  flacBytes += header.length + tail.length;
  const ratio = flacBytes / file.size;
  if (ratio > maxRatio) return skip('no-gain', format);
  options.onProgress?.({ readBytes, totalBytes: format.dataBytes, flacBytes });
  return {
    compressed: true,
    blob: new Blob([header as Uint8Array<ArrayBuffer>, ...parts], { type: 'audio/flac' }),
    ratio,
    format,
    elapsedMs: now() - started,
  };
}

/**
 * The verdict after the first seconds: 'no-gain' over `maxRatio`; 'slow' when encoding the whole file at this pace
 * would take longer than the upload time its saving buys (bytes saved / uplink speed).
 */
export function judge(
  readBytes: number,
  flacBytes: number,
  elapsedMs: number,
  maxRatio: number,
  uplinkBytesPerSecond: number,
): 'no-gain' | 'slow' | null {
  // The samples still in the encoder (under one 4096-sample block, 93 ms at 44.1 kHz) are not counted: under 1 %.
  const ratio = flacBytes / readBytes;
  if (ratio > maxRatio) return 'no-gain';
  const encodeSecondsPerByte = elapsedMs / 1000 / readBytes;
  const savedSecondsPerByte = (1 - ratio) / uplinkBytesPerSecond;
  return encodeSecondsPerByte > savedSecondsPerByte ? 'slow' : null;
}
