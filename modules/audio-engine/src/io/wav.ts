/**
 * WAV writing: 16- and 24-bit integer PCM with TPDF dither, or 32-bit float. Integer output uses
 * WAVE_FORMAT_EXTENSIBLE when the depth exceeds 16 bits or there are more than two channels, as Microsoft's
 * multichannel WAV guidance asks; otherwise the plain WAVE_FORMAT_PCM header.
 *
 * TPDF dither: q = round(x * 2^(N-1) + u1 - u2) with u1, u2 independent uniform on [0, 1), i.e. triangular noise of
 * +-1 LSB peak, which makes the quantisation error's first two moments independent of the signal (Lipshitz,
 * Wannamaker & Vanderkooy, "Quantization and dither: a theoretical survey", JAES 1992).
 */
import { open } from 'node:fs/promises';
import type { Tick } from '../stage/context';
import { Random } from '../dsp/random';
import type { Pcm } from '../pcm';

export type WavEncoding = 'pcm16' | 'pcm24' | 'float32';

export interface WriteWavOptions {
  encoding: WavEncoding;
  /** Dither seed (integer encodings); default 1. */
  seed?: number;
  /** Disable dither (plain rounding); only for tests and bit-exact round trips. */
  dither?: boolean;
  tick?: Tick;
}

const KSDATAFORMAT_SUBTYPE_TAIL = Buffer.from([
  0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
]);

/** The RIFF header for `frames` frames of the given layout. */
export function wavHeader(encoding: WavEncoding, channels: number, sampleRate: number, frames: number): Buffer {
  const bytesPerSample = encoding === 'pcm16' ? 2 : encoding === 'pcm24' ? 3 : 4;
  const formatTag = encoding === 'float32' ? 3 : 1;
  const extensible = encoding === 'pcm24' || channels > 2;
  const blockAlign = channels * bytesPerSample;
  const dataBytes = frames * blockAlign;
  const fmtSize = extensible ? 40 : encoding === 'float32' ? 18 : 16;
  const header = Buffer.alloc(12 + 8 + fmtSize + (encoding === 'float32' && !extensible ? 12 : 0) + 8);
  let o = 0;
  const str = (s: string) => {
    header.write(s, o, 'latin1');
    o += 4;
  };
  const u32 = (v: number) => {
    header.writeUInt32LE(v, o);
    o += 4;
  };
  const u16 = (v: number) => {
    header.writeUInt16LE(v, o);
    o += 2;
  };
  str('RIFF');
  u32(header.length - 8 + dataBytes);
  str('WAVE');
  str('fmt ');
  u32(fmtSize);
  u16(extensible ? 0xfffe : formatTag);
  u16(channels);
  u32(sampleRate);
  u32(sampleRate * blockAlign);
  u16(blockAlign);
  u16(bytesPerSample * 8);
  if (extensible) {
    u16(22);
    u16(bytesPerSample * 8); // valid bits per sample
    u32(channels === 1 ? 0x4 : channels === 2 ? 0x3 : 0); // speaker mask: FC, or FL|FR
    u16(formatTag);
    KSDATAFORMAT_SUBTYPE_TAIL.copy(header, o);
    o += 14;
  } else if (encoding === 'float32') {
    u16(0);
    str('fact');
    u32(4);
    u32(frames);
  }
  str('data');
  u32(dataBytes);
  return header;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Rounding offset: (v + 2^24 + 0.5) | 0 - 2^24 = round(v) for |v| < 2^24 (values beyond are clipped anyway). */
const OFFSET_INT = 1 << 24;
const OFFSET = OFFSET_INT + 0.5;
/** Scratch for dither values, reused across calls. */
let dither = new Float64Array(0);

/**
 * Dither noise source: xorshift32 (Marsaglia 2003), fast and plenty for dither; seeded for reproducible files.
 * `fill` writes TPDF values (difference of two independent uniforms, in (-1, 1) LSB).
 */
export class DitherNoise {
  private s: number;
  constructor(seed = 1) {
    this.s = (new Random(seed).nextUint32() | 1) >>> 0;
  }
  fill(out: Float64Array, count: number): void {
    let s = this.s;
    for (let i = 0; i < count; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const u1 = s >>> 0;
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      out[i] = (u1 - (s >>> 0)) * 2.3283064365386963e-10; // 2^-32
    }
    this.s = s;
  }
}

/**
 * Quantises frames [start, end) of `pcm` into `out` (interleaved little-endian), with TPDF dither when `noise` is
 * given; values are clipped to the representable range after dithering. Returns the bytes written.
 */
export function encodeFrames(
  pcm: Pcm,
  start: number,
  end: number,
  encoding: WavEncoding,
  noise: DitherNoise | null,
  out: Buffer,
): number {
  const n = pcm.channels.length;
  if (encoding === 'float32') {
    let o = 0;
    for (let i = start; i < end; i++) {
      for (let c = 0; c < n; c++) {
        out.writeFloatLE(pcm.channels[c]![i]!, o);
        o += 4;
      }
    }
    return o;
  }
  const bits = encoding === 'pcm16' ? 16 : 24;
  const scale = 2 ** (bits - 1);
  const max = scale - 1;
  const min = -scale;
  const count = end - start;
  if (dither.length < count) dither = new Float64Array(count);
  const d = dither;
  if (!noise) d.fill(0, 0, count);
  if (bits === 16 && LITTLE_ENDIAN && out.byteOffset % 2 === 0) {
    const int16 = new Int16Array(out.buffer, out.byteOffset, out.length >> 1);
    for (let c = 0; c < n; c++) {
      const ch = pcm.channels[c]!;
      if (noise) noise.fill(d, count);
      for (let i = start, k = c, t = 0; i < end; i++, k += n, t++) {
        // round half up via truncation of a positive offset value (|v| < 2^31 here): cheaper than Math.round
        let q = ((ch[i]! * scale + d[t]! + OFFSET) | 0) - OFFSET_INT;
        if (q > max) q = max;
        else if (q < min) q = min;
        int16[k] = q;
      }
    }
    return (end - start) * n * 2;
  }
  const bytes = bits / 8;
  for (let c = 0; c < n; c++) {
    const ch = pcm.channels[c]!;
    if (noise) noise.fill(d, count);
    for (let i = start, o = c * bytes, t = 0; i < end; i++, o += n * bytes, t++) {
      let q = ((ch[i]! * scale + d[t]! + OFFSET) | 0) - OFFSET_INT;
      if (q > max) q = max;
      else if (q < min) q = min;
      out[o] = q & 0xff;
      out[o + 1] = (q >> 8) & 0xff;
      if (bytes === 3) out[o + 2] = (q >> 16) & 0xff;
    }
  }
  return (end - start) * n * bytes;
}

/** Writes `pcm` to `path` as a WAV file, in 1 MB blocks. */
export async function writeWav(path: string, pcm: Pcm, options: WriteWavOptions): Promise<void> {
  const frames = pcm.channels[0]?.length ?? 0;
  const n = pcm.channels.length;
  const bytesPerSample = options.encoding === 'pcm16' ? 2 : options.encoding === 'pcm24' ? 3 : 4;
  const noise = options.encoding !== 'float32' && options.dither !== false ? new DitherNoise(options.seed ?? 1) : null;
  const handle = await open(path, 'w');
  try {
    await handle.write(wavHeader(options.encoding, n, pcm.sampleRate, frames));
    const framesPerBlock = Math.max(1, Math.floor((1 << 20) / (n * bytesPerSample)));
    const block = Buffer.alloc(framesPerBlock * n * bytesPerSample);
    for (let start = 0; start < frames; start += framesPerBlock) {
      const end = Math.min(frames, start + framesPerBlock);
      const bytes = encodeFrames(pcm, start, end, options.encoding, noise, block);
      await handle.write(block, 0, bytes);
      if (options.tick) await options.tick(end / frames);
    }
  } finally {
    await handle.close();
  }
}
