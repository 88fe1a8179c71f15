/**
 * Identifies what a file really is from its content: the container from its magic bytes (never from its name),
 * then streams, codecs and duration from ffprobe, and for WAV the header fields (format tag, bit depth, declared data
 * size) read directly so that a truncated file is recognised.
 */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import {
  DecodeFailedError,
  EmptyInputError,
  FormatMismatchError,
  InputNotFoundError,
  NoAudioTrackError,
  NoVideoTrackError,
  TruncatedInputError,
  UnsupportedFormatError,
} from '../errors';
import type { StageContext } from '../stage/context';
import { runTool, stderrTail } from './tools';

export type Container =
  | 'wav'
  | 'mp3'
  | 'mp4'
  | 'mov'
  | 'm4v'
  | 'm4a'
  | '3gp'
  | 'mpeg-ps'
  | 'mpeg-ts'
  | 'mpeg-es'
  | 'mp2'
  | 'aac'
  | 'flac'
  | 'ogg'
  | 'matroska'
  | 'aiff'
  | 'avi'
  | 'unknown';

/** Groups of containers a claim is checked against (mp4, mov and m4v are all ISO base media files). */
export type ContainerFamily = 'wav' | 'mp3' | 'isobmff' | 'mpeg' | 'other';

/** The formats the product accepts (spec section 5): WAV and MP3 audio; MP4, MPEG, MOV and M4V video. */
export const ACCEPTED_CONTAINERS: readonly Container[] = [
  'wav',
  'mp3',
  'flac',
  'mp4',
  'mov',
  'm4v',
  'mpeg-ps',
  'mpeg-ts',
];

export interface WavHeader {
  /** 1 = PCM, 3 = IEEE float, 0xFFFE = WAVE_FORMAT_EXTENSIBLE (then `subFormat` is the real one). */
  formatTag: number;
  subFormat: number | null;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
  /** WAVE_FORMAT_EXTENSIBLE's speaker mask, null in a plain header. */
  channelMask: number | null;
  /** Where the samples start: the byte after the `data` chunk's header. */
  dataOffset: number;
  /** Data size the header declares, null when unknown (0, 0xFFFFFFFF or RF64). */
  declaredDataBytes: number | null;
  /** Data bytes actually present in the file. */
  availableDataBytes: number;
}

export interface ProbeResult {
  sizeBytes: number;
  container: Container;
  family: ContainerFamily;
  /** ffprobe's demuxer name, e.g. `wav`, `mp3`, `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  accepted: boolean;
  hasAudio: boolean;
  /** True when a real video stream is present (cover art in an MP3 does not count). */
  hasVideo: boolean;
  durationSec: number;
  /** Duration of the audio stream (may differ from the container's in a video), seconds. */
  audioDurationSec: number;
  sampleRate: number | null;
  channels: number | null;
  audioCodec: string | null;
  videoCodec: string | null;
  video: { width: number; height: number; frameRate: number | null } | null;
  wav: WavHeader | null;
  /** True when the container declares a trustworthy duration (WAV header, MP3 Xing/VBRI, MP4 moov). */
  durationIsExact: boolean;
}

function familyOf(container: Container): ContainerFamily {
  switch (container) {
    case 'wav':
      return 'wav';
    case 'mp3':
      return 'mp3';
    case 'mp4':
    case 'mov':
    case 'm4v':
    case 'm4a':
    case '3gp':
      return 'isobmff';
    case 'mpeg-ps':
    case 'mpeg-ts':
    case 'mpeg-es':
      return 'mpeg';
    default:
      return 'other';
  }
}

function ascii(buf: Buffer, start: number, length: number): string {
  return buf.toString('latin1', start, start + length);
}

/** Length of an ID3v2 tag at the start of the buffer (0 when there is none). */
function id3Length(buf: Buffer): number {
  if (buf.length < 10 || ascii(buf, 0, 3) !== 'ID3') return 0;
  const size = ((buf[6]! & 0x7f) << 21) | ((buf[7]! & 0x7f) << 14) | ((buf[8]! & 0x7f) << 7) | (buf[9]! & 0x7f);
  const footer = (buf[5]! & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/** MPEG audio frame header at `i`: returns the layer (1..3), 0 for ADTS AAC, or -1. */
function mpegAudioLayer(buf: Buffer, i: number): number {
  if (i + 4 > buf.length) return -1;
  const b1 = buf[i + 1]!;
  if (buf[i] !== 0xff || (b1 & 0xe0) !== 0xe0) return -1;
  const version = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  if (layerBits === 0) return (b1 & 0xf6) === 0xf0 ? 0 : -1; // ADTS: 1111 0xx0 with layer 00
  if (version === 1) return -1;
  const b2 = buf[i + 2]!;
  const bitrateIndex = b2 >> 4;
  const srIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 15 || bitrateIndex === 0 || srIndex === 3) return -1;
  return 4 - layerBits;
}

/** Classifies a file from its first bytes. `head` should hold at least 4 kB (or the whole file). */
export function sniffContainer(head: Buffer): Container {
  if (head.length < 4) return 'unknown';
  const tag4 = ascii(head, 0, 4);
  if ((tag4 === 'RIFF' || tag4 === 'RF64' || tag4 === 'BW64') && head.length >= 12) {
    const form = ascii(head, 8, 4);
    if (form === 'WAVE') return 'wav';
    if (form === 'AVI ') return 'avi';
  }
  if (tag4 === 'FORM' && head.length >= 12 && ['AIFF', 'AIFC'].includes(ascii(head, 8, 4))) return 'aiff';
  if (tag4 === 'fLaC') return 'flac';
  if (tag4 === 'OggS') return 'ogg';
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'matroska';
  if (head.length >= 12 && ascii(head, 4, 4) === 'ftyp') {
    const brand = ascii(head, 8, 4);
    if (brand === 'qt  ') return 'mov';
    if (brand.startsWith('M4V')) return 'm4v';
    if (brand === 'M4A ' || brand === 'M4B ') return 'm4a';
    if (brand.startsWith('3g')) return '3gp';
    return 'mp4';
  }
  if (head.length >= 8 && ['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(ascii(head, 4, 4))) return 'mov';
  if (head[0] === 0 && head[1] === 0 && head[2] === 1) {
    if (head[3] === 0xba) return 'mpeg-ps';
    if (head[3] === 0xb3) return 'mpeg-es';
  }
  if (head[0] === 0x47 && head.length >= 377 && head[188] === 0x47 && head[376] === 0x47) return 'mpeg-ts';
  // MPEG audio: after an optional ID3v2 tag, two consecutive valid frame headers (or one at the very start).
  const start = id3Length(head);
  for (let i = start; i < Math.min(head.length - 4, start + 2048); i++) {
    const layer = mpegAudioLayer(head, i);
    if (layer < 0) continue;
    if (layer === 0) return 'aac';
    return layer === 3 ? 'mp3' : 'mp2';
  }
  if (start > 0) return 'mp3'; // an ID3 tag longer than the sniffed head: ffprobe decides below
  return 'unknown';
}

/** A file's first `bytes` bytes (fewer when it is shorter). */
export async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Reads `length` bytes at `position` (fewer at the end of what it can read). */
type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** Walks the RIFF chunks of a WAV file to read `fmt ` and the declared and available `data` sizes. */
export async function readWavHeader(file: string, sizeBytes: number): Promise<WavHeader | null> {
  const handle = await open(file, 'r');
  try {
    return await walkWavChunks(async (position, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    }, sizeBytes);
  } finally {
    await handle.close();
  }
}

/** The chunk walk of `readWavHeader`, over any reader: null when `fmt ` or `data` is not within what it reads. */
async function walkWavChunks(read: ReadAt, sizeBytes: number): Promise<WavHeader | null> {
  const header = await read(0, 12);
  if (header.length < 12) return null;
  const rf64 = ascii(header, 0, 4) !== 'RIFF';
  let offset = 12;
  let fmt: Omit<WavHeader, 'declaredDataBytes' | 'availableDataBytes' | 'dataOffset'> | null = null;
  while (offset + 8 <= sizeBytes) {
    const chunk = await read(offset, 8);
    if (chunk.length < 8) return null;
    const id = ascii(chunk, 0, 4);
    const size = chunk.readUInt32LE(4);
    if (id === 'fmt ') {
      const body = await read(offset + 8, Math.min(size, 40));
      if (body.length < 16) return null;
      const formatTag = body.readUInt16LE(0);
      fmt = {
        formatTag,
        subFormat: formatTag === 0xfffe && body.length >= 26 ? body.readUInt16LE(24) : null,
        channelMask: formatTag === 0xfffe && body.length >= 24 ? body.readUInt32LE(20) : null,
        channels: body.readUInt16LE(2),
        sampleRate: body.readUInt32LE(4),
        blockAlign: body.readUInt16LE(12),
        bitsPerSample: body.readUInt16LE(14),
      };
    } else if (id === 'data') {
      if (!fmt) return null;
      const available = sizeBytes - (offset + 8);
      const unknown = rf64 || size === 0 || size === 0xffffffff;
      return {
        ...fmt,
        dataOffset: offset + 8,
        declaredDataBytes: unknown ? null : size,
        availableDataBytes: Math.max(0, available),
      };
    }
    offset += 8 + size + (size & 1);
  }
  return null;
}

/** What a file's first bytes say of it: its container, and where the header tells them its sample rate and length. */
export interface HeadSniff {
  container: Container;
  sampleRate: number | null;
  durationSec: number | null;
  /** For FLAC, the size of the same samples as a PCM WAV (what a WAV compressed to FLAC weighed), when known. */
  pcmBytes: number | null;
}

/**
 * Reads a file's first bytes (`head`, a few tens of kB) as a resumable upload receives them, for the checks that can
 * refuse it before the rest is sent: the container, and for WAV and FLAC the sample rate and the duration their
 * headers declare (of a `length`-byte file). Null fields are not known from the head; the whole file is probed anyway
 * once it has arrived.
 */
export async function sniffHead(head: Buffer, length: number): Promise<HeadSniff> {
  const container = sniffContainer(head);
  if (container === 'wav') {
    const wav = await walkWavChunks(async (position, size) => head.subarray(position, position + size), length);
    if (!wav) return { container, sampleRate: null, durationSec: null, pcmBytes: null };
    const bytesPerSecond = wav.sampleRate * wav.blockAlign;
    const dataBytes = Math.min(wav.declaredDataBytes ?? wav.availableDataBytes, wav.availableDataBytes);
    return {
      container,
      sampleRate: wav.sampleRate,
      durationSec: bytesPerSecond > 0 ? dataBytes / bytesPerSecond : null,
      pcmBytes: null,
    };
  }
  // FLAC: STREAMINFO is the first metadata block (20 bits of rate, 36 of samples per channel, 0 when unknown).
  if (container === 'flac' && head.length >= 26 && (head[4]! & 0x7f) === 0) {
    const sampleRate = (head[18]! << 12) | (head[19]! << 4) | (head[20]! >> 4);
    const channels = ((head[20]! >> 1) & 7) + 1;
    const bits = (((head[20]! & 1) << 4) | (head[21]! >> 4)) + 1;
    const samples = (head[21]! & 0x0f) * 2 ** 32 + head.readUInt32BE(22);
    return {
      container,
      sampleRate,
      durationSec: sampleRate > 0 && samples > 0 ? samples / sampleRate : null,
      pcmBytes: samples > 0 ? 44 + samples * channels * Math.ceil(bits / 8) : null,
    };
  }
  return { container, sampleRate: null, durationSec: null, pcmBytes: null };
}

const PCM_CODECS: Record<number, string> = { 8: 'pcm_u8', 16: 'pcm_s16le', 24: 'pcm_s24le', 32: 'pcm_s32le' };
const FLOAT_CODECS: Record<number, string> = { 32: 'pcm_f32le', 64: 'pcm_f64le' };

/**
 * What ffprobe would report for a plain, complete PCM or float WAV, read from its header alone: such a file holds
 * nothing the header does not describe (the samples follow, a fixed number of bytes each), and starting ffprobe
 * costs more than a whole upload's parsing. Null for anything else (another codec, an odd layout, a data size
 * unknown or not matching the file, trailing chunks), which ffprobe then reads. The durations are rounded as
 * ffprobe prints them (microseconds); a test compares both on a range of files.
 */
export function probeCompleteWav(wav: WavHeader, sizeBytes: number): ProbeResult | null {
  const format = wav.formatTag === 0xfffe ? wav.subFormat : wav.formatTag;
  const codec =
    format === 1 ? PCM_CODECS[wav.bitsPerSample] : format === 3 ? FLOAT_CODECS[wav.bitsPerSample] : undefined;
  const data = wav.declaredDataBytes;
  if (!codec || data === null || data === 0) return null;
  if (wav.channels < 1 || wav.channels > 8 || wav.sampleRate < 1 || wav.sampleRate > 768_000) return null;
  if (wav.blockAlign !== (wav.channels * wav.bitsPerSample) / 8 || data % wav.blockAlign !== 0) return null;
  if (wav.availableDataBytes !== data + (data & 1)) return null;
  const samples = data / wav.blockAlign;
  const durationSec = Math.round((samples * 1e6) / wav.sampleRate) / 1e6;
  return {
    sizeBytes,
    container: 'wav',
    family: 'wav',
    formatName: 'wav',
    accepted: true,
    hasAudio: true,
    hasVideo: false,
    durationSec,
    audioDurationSec: durationSec,
    sampleRate: wav.sampleRate,
    channels: wav.channels,
    audioCodec: codec,
    videoCodec: null,
    video: null,
    wav,
    durationIsExact: true,
  };
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  channels?: number;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
}
interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

function parseRate(rate: string | undefined): number | null {
  if (!rate) return null;
  const [n, d] = rate.split('/').map(Number);
  if (!n || !d) return null;
  return n / d;
}

async function hasMp3LengthHeader(file: string): Promise<boolean> {
  const head = await readHead(file, 64 * 1024);
  const start = id3Length(head);
  const window = ascii(head, start, Math.min(512, Math.max(0, head.length - start)));
  return window.includes('Xing') || window.includes('Info') || window.includes('VBRI');
}

/**
 * Probes a file by its content. Throws ENGINE.INPUT_NOT_FOUND, ENGINE.EMPTY_INPUT, ENGINE.UNSUPPORTED_FORMAT (not a
 * media file ffprobe understands) or ENGINE.TRUNCATED_INPUT (a WAV whose data chunk is cut short, an MP4 without its
 * index). Whether the format is accepted is reported in `accepted`; `assertAcceptable` turns that into errors.
 */
export async function probe(file: string, ctx?: StageContext): Promise<ProbeResult> {
  let sizeBytes: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new InputNotFoundError(file);
    sizeBytes = s.size;
  } catch (error) {
    if (error instanceof InputNotFoundError) throw error;
    throw new InputNotFoundError(file);
  }
  if (sizeBytes === 0) throw new EmptyInputError('the file has 0 bytes');
  const head = await readHead(file, 4096);
  let container = sniffContainer(head);
  const wav = container === 'wav' ? await readWavHeader(file, sizeBytes) : null;
  if (container === 'wav') {
    if (!wav) throw new TruncatedInputError('the WAV header has no fmt or data chunk');
    if (wav.availableDataBytes < wav.blockAlign) throw new EmptyInputError('the WAV file holds no samples');
    if (wav.declaredDataBytes !== null && wav.availableDataBytes + wav.blockAlign <= wav.declaredDataBytes) {
      throw new TruncatedInputError('the WAV data chunk is shorter than its header declares', {
        declaredBytes: wav.declaredDataBytes,
        availableBytes: wav.availableDataBytes,
      });
    }
  }
  const known = wav ? probeCompleteWav(wav, sizeBytes) : null;
  if (known) return known;
  const run = await runTool(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    {
      ctx,
    },
  );
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(run.stdout.toString('utf8') || '{}') as FfprobeOutput;
  } catch {
    parsed = {};
  }
  if (run.code !== 0 || !parsed.format) {
    const tail = stderrTail(run.stderr);
    if (/moov atom not found/i.test(run.stderr)) throw new TruncatedInputError('the MP4/MOV index (moov) is missing');
    if (container === 'unknown') throw new UnsupportedFormatError('not an audio or video file', { detail: tail });
    throw new DecodeFailedError(`the ${container} container cannot be read`, { detail: tail });
  }
  const formatName = parsed.format.format_name ?? 'unknown';
  if (container === 'unknown' && formatName === 'mp3') container = 'mp3';
  if (container === 'unknown' && formatName === 'mpeg') container = 'mpeg-ps';
  const streams = parsed.streams ?? [];
  const audio = streams.find((s) => s.codec_type === 'audio');
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const durationSec = Number(parsed.format.duration ?? audio?.duration ?? video?.duration ?? 0) || 0;
  let durationIsExact = container === 'wav' || familyOf(container) === 'isobmff';
  if (container === 'mp3') durationIsExact = await hasMp3LengthHeader(file);
  return {
    sizeBytes,
    container,
    family: familyOf(container),
    formatName,
    accepted: ACCEPTED_CONTAINERS.includes(container),
    hasAudio: Boolean(audio),
    hasVideo: Boolean(video),
    durationSec,
    audioDurationSec: Number(audio?.duration) || durationSec,
    sampleRate: audio?.sample_rate ? Number(audio.sample_rate) : null,
    channels: audio?.channels ?? null,
    audioCodec: audio?.codec_name ?? null,
    videoCodec: video?.codec_name ?? null,
    video: video
      ? { width: video.width ?? 0, height: video.height ?? 0, frameRate: parseRate(video.avg_frame_rate) }
      : null,
    wav,
    durationIsExact,
  };
}

const CLAIMS: Record<string, ContainerFamily> = {
  wav: 'wav',
  wave: 'wav',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  mp3: 'mp3',
  'audio/mp3': 'mp3',
  'audio/mpeg': 'mp3',
  mp4: 'isobmff',
  m4v: 'isobmff',
  mov: 'isobmff',
  'video/mp4': 'isobmff',
  'video/quicktime': 'isobmff',
  'video/x-m4v': 'isobmff',
  mpeg: 'mpeg',
  mpg: 'mpeg',
  'video/mpeg': 'mpeg',
};

/** The container family a file name, extension or MIME type claims, or null when it claims nothing we know. */
export function claimedFamily(claim: string | undefined): ContainerFamily | null {
  if (!claim) return null;
  const c = claim.trim().toLowerCase();
  if (c.includes('/')) return CLAIMS[c.split(';')[0]!.trim()] ?? null;
  const ext = (extname(c) || `.${c}`).slice(1);
  return CLAIMS[ext] ?? null;
}

export interface AcceptOptions {
  /** File name, extension or MIME type the file claims to be. */
  claimedType?: string;
  /** The job needs a video track (enhancement `video` preset). */
  requireVideo?: boolean;
}

/** Validates a probe result for a job: accepted format, matching claim, an audio track, a video track if needed. */
export function assertAcceptable(result: ProbeResult, options: AcceptOptions = {}): void {
  const claimed = claimedFamily(options.claimedType);
  if (claimed && claimed !== result.family) {
    throw new FormatMismatchError(claimed, result.container === 'unknown' ? result.formatName : result.container);
  }
  if (!result.accepted) {
    throw new UnsupportedFormatError(`${result.container} (${result.formatName}) is not accepted`, {
      container: result.container,
      accepted: ACCEPTED_CONTAINERS,
    });
  }
  if (!result.hasAudio) throw new NoAudioTrackError();
  if (options.requireVideo && !result.hasVideo) throw new NoVideoTrackError();
}
