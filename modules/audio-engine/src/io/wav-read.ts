/**
 * A plain, complete PCM or float WAV read straight into planar float32, without starting ffmpeg: the same samples,
 * to the bit, that `ffmpeg -f f32le` gives for it (libswresample's conversions: u8 (x - 128) / 2^7, s16 x / 2^15,
 * s24 (x << 8) / 2^31, s32 (float) x / 2^31, f64 (float) x; f32 as it is). Starting ffmpeg costs 0.1-0.3 s of CPU
 * (Debian's links 215 libraries) before it reads a byte, and most uploads are such WAVs. Only when nothing is to be
 * changed (same rate, one or two channels in the layout ffmpeg assumes) and the file holds every sample its header
 * declares; anything else goes through ffmpeg. `io.spec.ts` compares both paths on every layout.
 */
import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { TruncatedInputError } from '../errors';
import type { StageContext, Tick } from '../stage/context';
import type { ProbeResult, WavHeader } from './probe';

/** The speaker masks ffmpeg assumes for one and two channels (FC; FL | FR): a WAV saying so needs no remix. */
const DEFAULT_MASKS: Record<number, number> = { 1: 0x4, 2: 0x3 };

type Converter = (bytes: Uint8Array, frames: number, channels: number, out: Float32Array[], at: number) => void;

/** How a header's samples become float32, or null when this reader does not take them. */
function converterFor(wav: WavHeader): Converter | null {
  const format = wav.formatTag === 0xfffe ? wav.subFormat : wav.formatTag;
  if (format === 1) {
    switch (wav.bitsPerSample) {
      case 8:
        return (bytes, frames, n, out, at) => {
          for (let c = 0; c < n; c++) {
            const o = out[c]!;
            for (let f = 0, j = c; f < frames; f++, j += n) o[at + f] = (bytes[j]! - 128) / 128;
          }
        };
      case 16:
        return (bytes, frames, n, out, at) => {
          const s = new Int16Array(bytes.buffer, bytes.byteOffset, frames * n);
          for (let c = 0; c < n; c++) {
            const o = out[c]!;
            for (let f = 0, j = c; f < frames; f++, j += n) o[at + f] = s[j]! / 32768;
          }
        };
      case 24:
        return (bytes, frames, n, out, at) => {
          for (let c = 0; c < n; c++) {
            const o = out[c]!;
            for (let f = 0, j = 3 * c; f < frames; f++, j += 3 * n) {
              o[at + f] = ((bytes[j]! | (bytes[j + 1]! << 8) | (bytes[j + 2]! << 16)) << 8) / 2147483648;
            }
          }
        };
      case 32:
        return (bytes, frames, n, out, at) => {
          const s = new Int32Array(bytes.buffer, bytes.byteOffset, frames * n);
          for (let c = 0; c < n; c++) {
            const o = out[c]!;
            // x / 2^31 is exact in a double; the store rounds it to float32 as (float) x then the scaling does.
            for (let f = 0, j = c; f < frames; f++, j += n) o[at + f] = s[j]! / 2147483648;
          }
        };
      default:
        return null;
    }
  }
  if (format === 3 && (wav.bitsPerSample === 32 || wav.bitsPerSample === 64)) {
    const double = wav.bitsPerSample === 64;
    return (bytes, frames, n, out, at) => {
      const s = double
        ? new Float64Array(bytes.buffer, bytes.byteOffset, frames * n)
        : new Float32Array(bytes.buffer, bytes.byteOffset, frames * n);
      for (let c = 0; c < n; c++) {
        const o = out[c]!;
        for (let f = 0, j = c; f < frames; f++, j += n) o[at + f] = s[j]!;
      }
    };
  }
  return null;
}

/**
 * The WAV's header when this reader can give exactly what ffmpeg would for a decode at `sampleRate` with `channels`
 * channels, else null.
 */
export function directWav(info: ProbeResult, sampleRate: number, channels: number): WavHeader | null {
  const wav = info.wav;
  if (!wav || info.container !== 'wav' || !info.durationIsExact || info.audioCodec === null) return null;
  if (endianness() !== 'LE' || wav.sampleRate !== sampleRate || wav.channels !== channels || channels > 2) return null;
  if (wav.channelMask !== null && wav.channelMask !== 0 && wav.channelMask !== DEFAULT_MASKS[channels]) return null;
  const data = wav.declaredDataBytes;
  // The declared samples, all there (chunks after them, as a LIST or bext some tools write, are left alone).
  if (data === null || data === 0 || data % wav.blockAlign !== 0 || wav.availableDataBytes < data) return null;
  return converterFor(wav) ? wav : null;
}

/** Bytes read at a time: whole frames of about 1 MiB. */
const CHUNK_BYTES = 1 << 20;

/** The samples of a WAV `directWav` accepted, planar; ticks like the ffmpeg path (every 2 %). */
export async function readWavDirect(
  file: string,
  wav: WavHeader,
  options: { ctx?: StageContext; tick?: Tick } = {},
): Promise<Float32Array[]> {
  const convert = converterFor(wav)!;
  const n = wav.channels;
  const frames = wav.declaredDataBytes! / wav.blockAlign;
  const out = Array.from({ length: n }, () => new Float32Array(frames));
  const perRead = Math.max(1, Math.floor(CHUNK_BYTES / wav.blockAlign));
  // Aligned for the typed views (a fresh ArrayBuffer starts at offset 0).
  const buffer = new Uint8Array(perRead * wav.blockAlign);
  const handle = await open(file, 'r');
  let lastTick = 0;
  try {
    for (let done = 0; done < frames;) {
      options.ctx?.throwIfCancelled();
      const want = Math.min(perRead, frames - done);
      const bytes = want * wav.blockAlign;
      let got = 0;
      while (got < bytes) {
        const { bytesRead } = await handle.read(buffer, got, bytes - got, wav.dataOffset + done * wav.blockAlign + got);
        if (bytesRead === 0) throw new TruncatedInputError('the WAV data chunk is shorter than its header declares');
        got += bytesRead;
      }
      convert(buffer, want, n, out, done);
      done += want;
      const f = Math.min(0.99, done / frames);
      if (options.tick && f - lastTick >= 0.02) {
        lastTick = f;
        await options.tick(f);
      }
    }
  } finally {
    await handle.close();
  }
  return out;
}
