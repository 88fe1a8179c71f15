/**
 * Reading a WAV file for the FLAC encoder: its RIFF (or RF64) chunks walked to `fmt ` and `data` whatever lies
 * between (LIST, bext, JUNK, iXML, odd sizes with their pad byte), PCM at 8, 16, 24 and 32 bits and IEEE float at 32,
 * plain or WAVE_FORMAT_EXTENSIBLE, any channel count; then its samples, a slice at a time, as the integers FLAC
 * stores, or the news that they are not integers (float samples off the 24-bit grid, 32-bit samples with their low
 * byte in use): such a file is sent as it is.
 */

export interface WavFormat {
  /** 'pcm' (signed, or unsigned at 8 bits) or 'float' (IEEE, 32-bit only). */
  encoding: 'pcm' | 'float';
  channels: number;
  sampleRate: number;
  /** Bits of each stored sample (the container size: 8, 16, 24 or 32). */
  bitsPerSample: number;
  /** Bytes of one frame (a sample of every channel). */
  blockAlign: number;
  /** WAVE_FORMAT_EXTENSIBLE's channel mask, null when the file has none. */
  channelMask: number | null;
  /** Where the samples start and how many bytes of whole frames they take. */
  dataOffset: number;
  dataBytes: number;
  /** The bit depth the FLAC stream gets: the PCM depth, or 24 for float and 32-bit PCM brought to 24 bits. */
  flacBitsPerSample: number;
}

export type WavProblem =
  /** Not a RIFF/RF64 WAVE file at all. */
  | 'not-wav'
  /** A WAV whose header cannot be followed (no fmt or data chunk, a chunk running past the end). */
  | 'malformed'
  /** The data chunk declares more than the file holds: the server's own check should see it. */
  | 'truncated'
  /** A codec or layout FLAC cannot take losslessly here (ADPCM, 64-bit float, more than 8 channels, ...). */
  | 'unsupported';

export type WavParse = { ok: true; format: WavFormat } | { ok: false; problem: WavProblem };

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

const KSDATAFORMAT_SUFFIX = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

function fourCC(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

function u16(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 2 ** 32;
}

/** True when the first bytes are those of a WAVE file (RIFF, RF64 or BW64). */
export function looksLikeWav(head: Uint8Array): boolean {
  if (head.length < 12) return false;
  const tag = fourCC(head, 0);
  return (tag === 'RIFF' || tag === 'RF64' || tag === 'BW64') && fourCC(head, 8) === 'WAVE';
}

/** Walks the chunks of a file of `size` bytes to its format and sample data. */
export async function parseWav(read: ReadAt, size: number): Promise<WavParse> {
  const head = await read(0, 12);
  if (!looksLikeWav(head)) return { ok: false, problem: 'not-wav' };
  const rf64 = fourCC(head, 0) !== 'RIFF';
  let ds64DataBytes: number | null = null;
  let fmt: Uint8Array | null = null;
  let offset = 12;
  while (offset + 8 <= size) {
    const header = await read(offset, 8);
    if (header.length < 8) break;
    const id = fourCC(header, 0);
    const declared = u32(header, 4);
    const body = offset + 8;
    if (id === 'ds64') {
      const ds64 = await read(body, Math.min(declared, 28));
      if (ds64.length >= 16) ds64DataBytes = u64(ds64, 8);
    } else if (id === 'fmt ') {
      if (declared < 16) return { ok: false, problem: 'malformed' };
      fmt = await read(body, Math.min(declared, 40));
      if (fmt.length < 16) return { ok: false, problem: 'malformed' };
    } else if (id === 'data') {
      if (!fmt) return { ok: false, problem: 'malformed' };
      const available = size - body;
      let dataBytes = declared;
      if (rf64 && declared === 0xffffffff && ds64DataBytes !== null) dataBytes = ds64DataBytes;
      // A size left unknown by a recorder that never came back to write it: what a decoder reads is its own
      // guess, so such a file goes as it is.
      else if (declared === 0xffffffff || declared === 0) return { ok: false, problem: 'malformed' };
      // A data chunk the file cuts short is the server's to reject (the probe reports a truncated WAV).
      if (dataBytes > available) return { ok: false, problem: 'truncated' };
      return describe(fmt, body, dataBytes);
    }
    const next = body + declared + (declared & 1);
    if (next <= offset) return { ok: false, problem: 'malformed' };
    offset = next;
  }
  return { ok: false, problem: 'malformed' };
}

function describe(fmt: Uint8Array, dataOffset: number, dataBytes: number): WavParse {
  const tag = u16(fmt, 0);
  const channels = u16(fmt, 2);
  const sampleRate = u32(fmt, 4);
  const blockAlign = u16(fmt, 12);
  const bitsPerSample = u16(fmt, 14);
  let format = tag;
  let channelMask: number | null = null;
  if (tag === 0xfffe) {
    if (fmt.length < 40) return { ok: false, problem: 'malformed' };
    channelMask = u32(fmt, 20);
    format = u16(fmt, 24);
    for (let i = 0; i < KSDATAFORMAT_SUFFIX.length; i++) {
      if (fmt[26 + i] !== KSDATAFORMAT_SUFFIX[i]) return { ok: false, problem: 'unsupported' };
    }
  }
  const encoding = format === 1 ? 'pcm' : format === 3 ? 'float' : null;
  if (!encoding) return { ok: false, problem: 'unsupported' };
  if (encoding === 'float' && bitsPerSample !== 32) return { ok: false, problem: 'unsupported' };
  if (encoding === 'pcm' && ![8, 16, 24, 32].includes(bitsPerSample)) return { ok: false, problem: 'unsupported' };
  if (channels < 1 || channels > 8 || sampleRate < 1 || sampleRate >= 2 ** 20) {
    return { ok: false, problem: 'unsupported' };
  }
  if (blockAlign !== (channels * bitsPerSample) / 8) return { ok: false, problem: 'unsupported' };
  return {
    ok: true,
    format: {
      encoding,
      channels,
      sampleRate,
      bitsPerSample,
      blockAlign,
      channelMask,
      dataOffset,
      // Whole frames only: a decoder drops a partial last one too.
      dataBytes: dataBytes - (dataBytes % blockAlign),
      flacBitsPerSample: encoding === 'float' || bitsPerSample === 32 ? 24 : bitsPerSample,
    },
  };
}

const FLOAT_TO_24 = 2 ** 23;

/**
 * Turns `bytes` (whole frames of `format`) into planar integers at `format.flacBitsPerSample`, in `out` (one array
 * per channel, at least `frames` long). Returns false when a sample has no exact integer form: a float not a
 * multiple of 2^-23 within [-1, 1), a negative zero, NaN or infinity, or a 32-bit sample with its low byte in use.
 * Decoding the FLAC then gives the very samples a decoder reads from the WAV (ffmpeg's float of a 24-bit integer v
 * is v / 2^23, the float the file held).
 */
export function readSamples(format: WavFormat, bytes: Uint8Array, out: Int32Array[]): boolean {
  const channels = format.channels;
  const frames = Math.floor(bytes.length / format.blockAlign);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  switch (format.encoding === 'float' ? 'float' : format.bitsPerSample) {
    case 8:
      for (let i = 0; i < frames; i++) for (let c = 0; c < channels; c++) out[c]![i] = bytes[o++]! - 128;
      return true;
    case 16:
      if ((bytes.byteOffset & 1) === 0 && (format.channels === 1 || format.channels === 2)) {
        // Aligned: read through an Int16Array (little-endian, as every browser's platform is).
        const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, frames * channels);
        if (channels === 1) out[0]!.set(pcm);
        else {
          const left = out[0]!;
          const right = out[1]!;
          for (let i = 0; i < frames; i++) {
            left[i] = pcm[2 * i]!;
            right[i] = pcm[2 * i + 1]!;
          }
        }
        return true;
      }
      for (let i = 0; i < frames; i++) {
        for (let c = 0; c < channels; c++) {
          out[c]![i] = view.getInt16(o, true);
          o += 2;
        }
      }
      return true;
    case 24:
      for (let i = 0; i < frames; i++) {
        for (let c = 0; c < channels; c++) {
          out[c]![i] = ((bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16)) << 8) >> 8;
          o += 3;
        }
      }
      return true;
    case 32:
      for (let i = 0; i < frames; i++) {
        for (let c = 0; c < channels; c++) {
          const v = view.getInt32(o, true);
          if ((v & 0xff) !== 0) return false;
          out[c]![i] = v >> 8;
          o += 4;
        }
      }
      return true;
    case 'float':
      for (let i = 0; i < frames; i++) {
        for (let c = 0; c < channels; c++) {
          const f = view.getFloat32(o, true);
          const v = f * FLOAT_TO_24;
          // Rejects fractions, NaN, infinities, +-1 and beyond, and -0 (which would come back as +0).
          if (!Number.isInteger(v) || v < -FLOAT_TO_24 || v >= FLOAT_TO_24 || Object.is(v, -0)) return false;
          out[c]![i] = v;
          o += 4;
        }
      }
      return true;
    default:
      return false;
  }
}
