/**
 * FLAC round trips through the system ffmpeg (the decoder the server runs): music-like WAVs made here (chords,
 * noise, drum hits) at 16 and 24 bits, 32-bit float on the 24-bit grid, mono and stereo, 44.1 and 48 kHz, compressed
 * by `compressWav`, decoded by ffmpeg and compared with the source sample for sample, as integers and as the float
 * stream the engine decodes; the STREAMINFO's MD5 against Node's own MD5 of the samples.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compressWav, judge, type CompressResult } from './compress';
import { FlacEncoder } from './encoder';
import { Md5 } from './md5';
import { parseWav, readSamples } from './wav';

type Layout = { bits: 16 | 24 | 32; float?: boolean; channels: number; rate: number };

/** A seeded generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Music-like audio in [-1, 1): a chord progression with harmonics, a kick and a snare-like noise burst on the beats,
 * a quiet noise floor; the channels differ (panning, a little delay), so stereo decorrelation is exercised.
 */
function music(seconds: number, rate: number, channels: number, seed = 1): Float64Array[] {
  const rnd = random(seed);
  const frames = Math.round(seconds * rate);
  const chords = [
    [220, 277.18, 329.63],
    [196, 246.94, 293.66],
    [174.61, 220, 261.63],
    [164.81, 207.65, 246.94],
  ];
  const out = Array.from({ length: channels }, () => new Float64Array(frames));
  const beat = Math.round(rate * 0.5);
  for (let i = 0; i < frames; i++) {
    const t = i / rate;
    const chord = chords[Math.floor(t / 2) % chords.length]!;
    let tone = 0;
    for (const f of chord) for (let h = 1; h <= 4; h++) tone += Math.sin(2 * Math.PI * f * h * t + h) / (h * h);
    const sinceBeat = (i % beat) / rate;
    const kick = Math.sin(2 * Math.PI * (50 + 80 * Math.exp(-sinceBeat * 30)) * sinceBeat) * Math.exp(-sinceBeat * 8);
    const onSnare = Math.floor(i / beat) % 2 === 1;
    const noise = rnd() * 2 - 1;
    const snare = onSnare ? noise * Math.exp(-sinceBeat * 20) * 0.5 : 0;
    const floor = (rnd() * 2 - 1) * 0.002;
    for (let c = 0; c < channels; c++) {
      const pan = channels === 1 ? 1 : c === 0 ? 0.8 : 1.1;
      out[c]![i] = 0.18 * tone * pan + 0.35 * kick + snare * (c === 0 ? 0.9 : 1) + floor * (c + 1);
    }
  }
  return out;
}

/** Quantises to integers of `bits` (the WAV's samples as the test knows them). */
function quantise(audio: Float64Array[], bits: number): Int32Array[] {
  const scale = 2 ** (bits - 1);
  return audio.map((ch) => Int32Array.from(ch, (v) => Math.max(-scale, Math.min(scale - 1, Math.round(v * scale)))));
}

/** A WAV file of `samples` (integers at `layout.bits`, or floats when `floats` is given). */
function wavFile(layout: Layout, samples: Int32Array[] | null, floats: Float32Array[] | null, extensible = false) {
  const channels = layout.channels;
  const frames = (samples ?? floats)![0]!.length;
  const width = layout.bits / 8;
  const dataBytes = frames * channels * width;
  const fmtBytes = extensible ? 40 : 16;
  // An odd-sized chunk before fmt and a LIST after data, as DAWs write them.
  const junk = 'JUNK';
  const junkBytes = 13;
  const list = 'LIST';
  const listBytes = 4;
  const size = 12 + 8 + junkBytes + 1 + 8 + fmtBytes + 8 + dataBytes + 8 + listBytes;
  const buf = Buffer.alloc(size);
  let o = 0;
  buf.write('RIFF', o);
  buf.writeUInt32LE(size - 8, 4);
  buf.write('WAVE', 8);
  o = 12;
  buf.write(junk, o);
  buf.writeUInt32LE(junkBytes, o + 4);
  o += 8 + junkBytes + 1;
  buf.write('fmt ', o);
  buf.writeUInt32LE(fmtBytes, o + 4);
  const tag = layout.float ? 3 : 1;
  buf.writeUInt16LE(extensible ? 0xfffe : tag, o + 8);
  buf.writeUInt16LE(channels, o + 10);
  buf.writeUInt32LE(layout.rate, o + 12);
  buf.writeUInt32LE(layout.rate * channels * width, o + 16);
  buf.writeUInt16LE(channels * width, o + 20);
  buf.writeUInt16LE(layout.bits, o + 22);
  if (extensible) {
    buf.writeUInt16LE(22, o + 24);
    buf.writeUInt16LE(layout.bits, o + 26);
    buf.writeUInt32LE(channels === 1 ? 4 : 3, o + 28);
    Buffer.from([tag, 0, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71]).copy(buf, o + 32);
  }
  o += 8 + fmtBytes;
  buf.write('data', o);
  buf.writeUInt32LE(dataBytes, o + 4);
  o += 8;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) {
      if (floats) buf.writeFloatLE(floats[c]![i]!, o);
      else if (width === 2) buf.writeInt16LE(samples![c]![i]!, o);
      else if (width === 3) buf.writeIntLE(samples![c]![i]!, o, 3);
      else buf.writeInt32LE(samples![c]![i]!, o);
      o += width;
    }
  }
  buf.write(list, o);
  buf.writeUInt32LE(listBytes, o + 4);
  buf.write('INFO', o + 8);
  return buf;
}

/** A Blob of a Buffer's bytes (Node's Buffer may sit on a shared pool the Blob type does not take). */
function blobOf(bytes: Uint8Array): Blob {
  return new Blob([new Uint8Array(bytes)]);
}

function ffmpeg(input: string, format: 's32le' | 'f32le'): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-nostdin', '-i', input, '-f', format, '-c:a', `pcm_${format}`, '-'], {
    maxBuffer: 1 << 30,
  });
}

function ffprobeStream(input: string): Record<string, string> {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', input]).toString();
  return (JSON.parse(out) as { streams: Record<string, string>[] }).streams[0]!;
}

async function compressed(wav: Buffer, options = {}): Promise<Extract<CompressResult, { compressed: true }>> {
  const result = await compressWav(blobOf(wav), { minBytes: 0, uplinkBytesPerSecond: 1, ...options });
  if (!result.compressed) throw new Error(`not compressed: ${result.reason}`);
  return result;
}

/** MD5 of planar integers as FLAC defines it: interleaved, little-endian, ceil(bits / 8) bytes each. */
function samplesMd5(samples: Int32Array[], bits: number): string {
  const width = Math.ceil(bits / 8);
  const frames = samples[0]!.length;
  const buf = Buffer.alloc(frames * samples.length * width);
  let o = 0;
  for (let i = 0; i < frames; i++) {
    for (const ch of samples) {
      buf.writeIntLE(ch[i]!, o, width);
      o += width;
    }
  }
  return createHash('md5').update(buf).digest('hex');
}

function withTemp<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'kora-flac-'));
  return run(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

const LAYOUTS: (Layout & { name: string; extensible?: boolean })[] = [
  { name: '16-bit mono 44.1 kHz', bits: 16, channels: 1, rate: 44100 },
  { name: '16-bit stereo 44.1 kHz', bits: 16, channels: 2, rate: 44100 },
  { name: '24-bit stereo 48 kHz', bits: 24, channels: 2, rate: 48000 },
  { name: '24-bit mono 48 kHz (extensible)', bits: 24, channels: 1, rate: 48000, extensible: true },
  { name: '16-bit stereo 48 kHz (extensible)', bits: 16, channels: 2, rate: 48000, extensible: true },
  { name: '24-bit stereo 44.1 kHz', bits: 24, channels: 2, rate: 44100 },
];

describe('FLAC round trip through ffmpeg', () => {
  it.each(LAYOUTS)('$name: every sample decodes bit-exact, the MD5 is right', async (layout) =>
    withTemp(async (dir) => {
      // 3.3 s: not a whole number of 4096-sample blocks, so the short last frame is exercised.
      const source = quantise(music(3.3, layout.rate, layout.channels), layout.bits);
      const wav = wavFile(layout, source, null, layout.extensible);
      const result = await compressed(wav);
      const flacPath = join(dir, 'x.flac');
      const wavPath = join(dir, 'x.wav');
      writeFileSync(flacPath, Buffer.from(await result.blob.arrayBuffer()));
      writeFileSync(wavPath, wav);

      const stream = ffprobeStream(flacPath);
      expect(stream.codec_name).toBe('flac');
      expect(Number(stream.sample_rate)).toBe(layout.rate);
      expect(Number(stream.channels)).toBe(layout.channels);

      // Integers: ffmpeg gives them left-aligned in 32 bits.
      const decoded = ffmpeg(flacPath, 's32le');
      const frames = source[0]!.length;
      expect(decoded.length).toBe(frames * layout.channels * 4);
      let mismatches = 0;
      for (let i = 0; i < frames; i++) {
        for (let c = 0; c < layout.channels; c++) {
          const got = decoded.readInt32LE((i * layout.channels + c) * 4) >> (32 - layout.bits);
          if (got !== source[c]![i]) mismatches++;
        }
      }
      expect(mismatches).toBe(0);
      // The float stream the engine decodes, from the FLAC and from the WAV: the same bytes.
      expect(ffmpeg(flacPath, 'f32le').equals(ffmpeg(wavPath, 'f32le'))).toBe(true);

      const flac = Buffer.from(await result.blob.arrayBuffer());
      expect(flac.subarray(26, 42).toString('hex')).toBe(samplesMd5(source, layout.bits));
      expect(result.ratio).toBeLessThan(0.9);
    }),
  );

  it('32-bit float on the 24-bit grid: compressed as 24-bit, decoded to the very floats of the WAV', async () =>
    withTemp(async (dir) => {
      const layout: Layout = { bits: 32, float: true, channels: 2, rate: 48000 };
      const ints = quantise(music(3, layout.rate, 2, 7), 24);
      const floats = ints.map((ch) => Float32Array.from(ch, (v) => v / 2 ** 23));
      const wav = wavFile(layout, null, floats);
      const result = await compressed(wav);
      expect(result.format.flacBitsPerSample).toBe(24);
      const flacPath = join(dir, 'x.flac');
      const wavPath = join(dir, 'x.wav');
      writeFileSync(flacPath, Buffer.from(await result.blob.arrayBuffer()));
      writeFileSync(wavPath, wav);
      const fromFlac = ffmpeg(flacPath, 'f32le');
      const fromWav = ffmpeg(wavPath, 'f32le');
      expect(fromFlac.length).toBe(fromWav.length);
      expect(fromFlac.equals(fromWav)).toBe(true);
      // And the WAV's float bytes themselves (its data chunk), not only ffmpeg's reading of them.
      const data = wav.subarray(wav.indexOf('data') + 8, wav.indexOf('data') + 8 + fromWav.length);
      expect(fromFlac.equals(data)).toBe(true);
    }));

  it('32-bit float with arbitrary values is sent as it is', async () => {
    const layout: Layout = { bits: 32, float: true, channels: 2, rate: 44100 };
    const floats = music(2, layout.rate, 2, 3).map((ch) => Float32Array.from(ch));
    const result = await compressWav(blobOf(wavFile(layout, null, floats)), { minBytes: 0 });
    expect(result).toMatchObject({ compressed: false, reason: 'not-integer', ratio: 1 });
  });

  it('a float WAV holding one negative zero is sent as it is (FLAC would bring it back as +0)', async () => {
    const layout: Layout = { bits: 32, float: true, channels: 1, rate: 44100 };
    const floats = quantise(music(1, layout.rate, 1), 24).map((ch) => Float32Array.from(ch, (v) => v / 2 ** 23));
    floats[0]![5000] = -0;
    const result = await compressWav(blobOf(wavFile(layout, null, floats)), { minBytes: 0 });
    expect(result).toMatchObject({ compressed: false, reason: 'not-integer' });
  });

  it('32-bit integer PCM whose low byte is unused goes as 24-bit FLAC, exact; otherwise as it is', async () =>
    withTemp(async (dir) => {
      const layout: Layout = { bits: 32, channels: 2, rate: 44100 };
      const ints = quantise(music(2, layout.rate, 2, 5), 24);
      const wide = ints.map((ch) => Int32Array.from(ch, (v) => v * 256));
      const wav = wavFile(layout, wide, null);
      const result = await compressed(wav);
      const flacPath = join(dir, 'x.flac');
      const wavPath = join(dir, 'x.wav');
      writeFileSync(flacPath, Buffer.from(await result.blob.arrayBuffer()));
      writeFileSync(wavPath, wav);
      expect(ffmpeg(flacPath, 's32le').equals(ffmpeg(wavPath, 's32le'))).toBe(true);
      expect(ffmpeg(flacPath, 'f32le').equals(ffmpeg(wavPath, 'f32le'))).toBe(true);

      wide[1]![100] = wide[1]![100]! + 1;
      const full = await compressWav(blobOf(wavFile(layout, wide, null)), { minBytes: 0 });
      expect(full).toMatchObject({ compressed: false, reason: 'not-integer' });
    }));

  it('a 16-bit recording stored in 24 bits codes its zero low byte as wasted bits', async () =>
    withTemp(async (dir) => {
      const layout: Layout = { bits: 24, channels: 2, rate: 44100 };
      const source = quantise(music(3, layout.rate, 2), 16).map((ch) => Int32Array.from(ch, (v) => v * 256));
      const wav = wavFile(layout, source, null);
      const result = await compressed(wav);
      const as16 = await compressed(wavFile({ ...layout, bits: 16 }, quantise(music(3, layout.rate, 2), 16), null));
      // The same information: within 1% of the 16-bit file's FLAC.
      expect(Math.abs(result.blob.size / as16.blob.size - 1)).toBeLessThan(0.01);
      const flacPath = join(dir, 'x.flac');
      writeFileSync(flacPath, Buffer.from(await result.blob.arrayBuffer()));
      const decoded = ffmpeg(flacPath, 's32le');
      let mismatches = 0;
      for (let i = 0; i < source[0]!.length; i++) {
        for (let c = 0; c < 2; c++) if (decoded.readInt32LE((i * 2 + c) * 4) >> 8 !== source[c]![i]) mismatches++;
      }
      expect(mismatches).toBe(0);
    }));

  it('silence, full-scale square waves and white noise decode exact (constant, verbatim and wide Rice codes)', async () =>
    withTemp(async (dir) => {
      const rate = 44100;
      const frames = 4096 * 3 + 100;
      const rnd = random(9);
      const left = new Int32Array(frames);
      const right = new Int32Array(frames);
      for (let i = 0; i < frames; i++) {
        left[i] = i < 4096 ? 0 : i % 100 < 50 ? 8388607 : -8388608;
        right[i] = Math.floor(rnd() * 2 ** 24) - 2 ** 23;
      }
      const wav = wavFile({ bits: 24, channels: 2, rate }, [left, right], null);
      const result = await compressWav(blobOf(wav), { minBytes: 0, maxRatio: 2, uplinkBytesPerSecond: 1 });
      if (!result.compressed) throw new Error(result.reason);
      const flacPath = join(dir, 'x.flac');
      writeFileSync(flacPath, Buffer.from(await result.blob.arrayBuffer()));
      const decoded = ffmpeg(flacPath, 's32le');
      let mismatches = 0;
      for (let i = 0; i < frames; i++) {
        if (decoded.readInt32LE(i * 8) >> 8 !== left[i]) mismatches++;
        if (decoded.readInt32LE(i * 8 + 4) >> 8 !== right[i]) mismatches++;
      }
      expect(mismatches).toBe(0);
    }));

  it.each([
    ['left-right', 1],
    ['left-side', 8],
    ['side-right', 9],
    ['mid-side', 10],
  ] as const)('stereo coded %s (assignment %i) decodes exact at 16 and 24 bits', async (stereo, code) =>
    withTemp(async (dir) => {
      for (const bits of [16, 24]) {
        const source = quantise(music(1.5, 44100, 2, 11), bits);
        const encoder = new FlacEncoder({ sampleRate: 44100, channels: 2, bitsPerSample: bits }, { stereo });
        const body = encoder.write(source, source[0]!.length);
        const { header, tail } = encoder.finish();
        const flac = Buffer.concat([header, body, tail]);
        // The first frame follows the 42-byte stream header; its fourth byte holds the channel assignment.
        expect(flac.readUInt16BE(42)).toBe(0xfff8);
        expect(flac[45]! >> 4).toBe(code);
        const flacPath = join(dir, `x${bits}.flac`);
        writeFileSync(flacPath, flac);
        const decoded = ffmpeg(flacPath, 's32le');
        let mismatches = 0;
        for (let i = 0; i < source[0]!.length; i++) {
          for (let c = 0; c < 2; c++) {
            if (decoded.readInt32LE((i * 2 + c) * 4) >> (32 - bits) !== source[c]![i]) mismatches++;
          }
        }
        expect(mismatches).toBe(0);
      }
    }),
  );

  it('six channels encode exact at the sample level (the encoder takes up to eight)', async () =>
    withTemp(async (dir) => {
      const source = quantise(music(1, 48000, 6, 4), 16);
      const encoder = new FlacEncoder({ sampleRate: 48000, channels: 6, bitsPerSample: 16 });
      const body = encoder.write(source, source[0]!.length);
      const { header, tail } = encoder.finish();
      const flacPath = join(dir, 'x.flac');
      writeFileSync(flacPath, Buffer.concat([header, body, tail]));
      const decoded = ffmpeg(flacPath, 's32le');
      let mismatches = 0;
      for (let i = 0; i < source[0]!.length; i++) {
        for (let c = 0; c < 6; c++) if (decoded.readInt32LE((i * 6 + c) * 4) >> 16 !== source[c]![i]) mismatches++;
      }
      expect(mismatches).toBe(0);
      expect(Buffer.from(header.subarray(26, 42)).toString('hex')).toBe(samplesMd5(source, 16));
    }));
});

describe('when compression is skipped', () => {
  const layout: Layout = { bits: 16, channels: 2, rate: 44100 };

  it('is skipped for a file under the minimum size, for anything not a WAV, for more than 2 channels', async () => {
    const wav = wavFile(layout, quantise(music(1, 44100, 2), 16), null);
    expect(await compressWav(blobOf(wav))).toMatchObject({ compressed: false, reason: 'small' });
    const mp3ish = new Uint8Array(2 * 1024 * 1024);
    mp3ish.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
    expect(await compressWav(new Blob([mp3ish]))).toMatchObject({ compressed: false, reason: 'not-wav' });
    const surround = wavFile({ ...layout, channels: 6 }, quantise(music(0.5, 44100, 6), 16), null);
    expect(await compressWav(blobOf(surround), { minBytes: 0 })).toMatchObject({ reason: 'channels' });
  });

  it('stops after the first seconds when white noise does not compress below 90 %', async () => {
    const rnd = random(2);
    const frames = 44100 * 4;
    const noise = [0, 1].map(() => Int32Array.from({ length: frames }, () => Math.floor(rnd() * 65536) - 32768));
    const reads: number[] = [];
    const wav = blobOf(wavFile(layout, noise, null));
    const spy = { slice: (a: number, b: number) => (reads.push(b - a), wav.slice(a, b)), size: wav.size } as Blob;
    const result = await compressWav(spy, { minBytes: 0, probeSeconds: 1 });
    expect(result).toMatchObject({ compressed: false, reason: 'no-gain' });
    // It stopped after the 1 s probe, not after reading the 4 s file.
    const sampleBytesRead = reads.filter((n) => n > 64).reduce((a, b) => a + b, 0);
    expect(sampleBytesRead).toBe(44100 * 4);
  });

  it('stops when the device encodes slower than the upload time the saving buys', async () => {
    // A clock where every call is 1 s later: the first seconds take ages.
    let t = 0;
    const wav = wavFile(layout, quantise(music(3, 44100, 2), 16), null);
    const result = await compressWav(blobOf(wav), { minBytes: 0, probeSeconds: 1, now: () => (t += 1000) });
    expect(result).toMatchObject({ compressed: false, reason: 'slow' });
  });

  it('judges by the ratio first, then by encoding time against upload time saved', () => {
    expect(judge(1000, 950, 1, 0.9, 1e6)).toBe('no-gain');
    // 1 MB coded to 600 KB in 1 s saves 400 KB: 0.8 s at 500 KB/s, less than the 1 s spent.
    expect(judge(1e6, 6e5, 1000, 0.9, 5e5)).toBe('slow');
    expect(judge(1e6, 6e5, 500, 0.9, 5e5)).toBeNull();
  });

  it('is skipped for a WAV whose data chunk is cut short', async () => {
    const wav = wavFile(layout, quantise(music(1, 44100, 2), 16), null);
    const cut = wav.subarray(0, wav.length - 5000);
    expect(await compressWav(blobOf(cut), { minBytes: 0 })).toMatchObject({ reason: 'truncated' });
  });

  it('aborts when its signal does', async () => {
    const wav = wavFile(layout, quantise(music(3, 44100, 2), 16), null);
    const controller = new AbortController();
    const run = compressWav(blobOf(wav), {
      minBytes: 0,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('stop')),
    });
    await expect(run).rejects.toThrow('stop');
  });
});

describe('WAV parsing and MD5', () => {
  it('reads RF64 with its ds64 size, and 8-bit unsigned samples as signed', async () => {
    const frames = 1000;
    const body = Buffer.alloc(frames);
    for (let i = 0; i < frames; i++) body[i] = (i * 7) & 0xff;
    const head = Buffer.alloc(12 + 36 + 24 + 8);
    head.write('RF64', 0);
    head.writeUInt32LE(0xffffffff, 4);
    head.write('WAVE', 8);
    head.write('ds64', 12);
    head.writeUInt32LE(28, 16);
    head.writeBigUInt64LE(BigInt(head.length + frames - 8), 20);
    head.writeBigUInt64LE(BigInt(frames), 28);
    head.writeBigUInt64LE(BigInt(frames), 36);
    head.writeUInt32LE(0, 44);
    head.write('fmt ', 48);
    head.writeUInt32LE(16, 52);
    head.writeUInt16LE(1, 56);
    head.writeUInt16LE(1, 58);
    head.writeUInt32LE(8000, 60);
    head.writeUInt32LE(8000, 64);
    head.writeUInt16LE(1, 68);
    head.writeUInt16LE(8, 70);
    head.write('data', 72);
    head.writeUInt32LE(0xffffffff, 76);
    const file = Buffer.concat([head, body, Buffer.from('trailing chunk')]);
    const parsed = await parseWav(async (o, n) => file.subarray(o, o + n), file.length);
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.format).toMatchObject({ channels: 1, bitsPerSample: 8, dataOffset: 80, dataBytes: frames });
    const out = [new Int32Array(frames)];
    expect(readSamples(parsed.format, body, out)).toBe(true);
    expect(out[0]![1]).toBe(7 - 128);
  });

  it('hashes like Node across odd chunk boundaries', () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31) & 0xff));
    const md5 = new Md5();
    md5.update(data.subarray(0, 3));
    md5.update(data.subarray(3, 67));
    md5.update(data.subarray(67));
    expect(Buffer.from(md5.digest()).toString('hex')).toBe(createHash('md5').update(data).digest('hex'));
  });
});
