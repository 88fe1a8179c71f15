import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../src/errors';
import { sine, toChannels } from '../eval/signals';
import { decodeAudio } from '../src/io/decode';
import { directWav } from '../src/io/wav-read';
import {
  assertAcceptable,
  claimedFamily,
  probe,
  probeCompleteWav,
  readWavHeader,
  sniffContainer,
} from '../src/io/probe';
import { toolPath } from '../src/io/tools';
import { resamplePcm } from '../src/io/resample';
import { ffmpeg, tempDir, writePcm } from './support/media';

const tmp = tempDir();
const file = (name: string) => join(tmp.dir, name);

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof EngineError) return error.code;
    throw error;
  }
  return 'no error';
}

beforeAll(async () => {
  const tone = { sampleRate: 44100, channels: toChannels(sine(440, 44100, 2, -6), 2) };
  await writePcm(file('float.wav'), tone, 'float32');
  await writePcm(file('pcm16.wav'), tone, 'pcm16');
  await writePcm(file('pcm24.wav'), tone, 'pcm24'); // WAVE_FORMAT_EXTENSIBLE
  await writePcm(file('mono48.wav'), { sampleRate: 48000, channels: [sine(440, 48000, 2, -6)] }, 'pcm16');
  ffmpeg(['-i', file('float.wav'), '-c:a', 'pcm_s32le', file('pcm32.wav')]);
  ffmpeg(['-i', file('float.wav'), '-b:a', '192k', file('tone.mp3')]);
  const video = ['-f', 'lavfi', '-i', 'testsrc=d=2:s=160x120:r=25', '-i', file('float.wav'), '-shortest'];
  ffmpeg([...video, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file('clip.mp4')]);
  ffmpeg([...video, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file('clip.mov')]);
  ffmpeg([...video, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'ipod', file('clip.m4v')]);
  ffmpeg([...video, '-c:v', 'mpeg2video', '-c:a', 'mp2', '-f', 'mpeg', file('clip.mpg')]);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc=d=1:s=160x120:r=25',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    file('silent.mp4'),
  ]);
  ffmpeg(['-i', file('float.wav'), '-c:a', 'libvorbis', file('tone.ogg')]);
  writeFileSync(file('empty.wav'), '');
  writeFileSync(file('text.wav'), 'this is not audio at all, just some text pretending to be a wave file\n');
  copyFileSync(file('tone.mp3'), file('mp3-named.wav'));
  copyFileSync(file('pcm16.wav'), file('truncated.wav'));
  truncateSync(file('truncated.wav'), 100_000);
  copyFileSync(file('pcm16.wav'), file('header-only.wav'));
  truncateSync(file('header-only.wav'), 44);
  copyFileSync(file('tone.mp3'), file('truncated.mp3'));
  truncateSync(file('truncated.mp3'), Math.floor(readFileSync(file('tone.mp3')).length / 2));
  const mp4 = readFileSync(file('clip.mp4'));
  writeFileSync(file('no-index.mp4'), mp4.subarray(0, Math.floor(mp4.length / 2))); // moov at the end is lost
}, 30_000);

afterAll(() => tmp.cleanup());

describe('probe identifies files by content', () => {
  it.each([
    ['float.wav', 'wav', 'pcm_f32le'],
    ['pcm16.wav', 'wav', 'pcm_s16le'],
    ['pcm24.wav', 'wav', 'pcm_s24le'],
    ['pcm32.wav', 'wav', 'pcm_s32le'],
    ['tone.mp3', 'mp3', 'mp3'],
    ['clip.mp4', 'mp4', 'aac'],
    ['clip.mov', 'mov', 'aac'],
    ['clip.m4v', 'm4v', 'aac'],
    ['clip.mpg', 'mpeg-ps', 'mp2'],
  ])('%s is %s with %s audio', async (name, container, codec) => {
    const p = await probe(file(name));
    expect(p.container).toBe(container);
    expect(p.audioCodec).toBe(codec);
    expect(p.hasAudio).toBe(true);
    expect(p.accepted).toBe(true);
    expect(Math.abs(p.audioDurationSec - 2)).toBeLessThan(0.1);
  });

  it('reports video tracks, channels and sample rate', async () => {
    const clip = await probe(file('clip.mp4'));
    expect(clip.hasVideo).toBe(true);
    expect(clip.video).toMatchObject({ width: 160, height: 120 });
    const mono = await probe(file('mono48.wav'));
    expect(mono).toMatchObject({ hasVideo: false, channels: 1, sampleRate: 48000 });
  });

  it('reads the WAVE_FORMAT_EXTENSIBLE header of a 24-bit file', async () => {
    const p = await probe(file('pcm24.wav'));
    expect(p.wav).toMatchObject({ formatTag: 0xfffe, subFormat: 1, bitsPerSample: 24, channels: 2 });
  });

  it('sniffs containers from magic bytes alone', () => {
    expect(sniffContainer(readFileSync(file('tone.mp3')).subarray(0, 4096))).toBe('mp3');
    expect(sniffContainer(readFileSync(file('clip.mov')).subarray(0, 4096))).toBe('mov');
    expect(sniffContainer(Buffer.from('hello world, plain text'))).toBe('unknown');
  });

  it('maps claims (names, extensions, MIME types) to container families', () => {
    expect(claimedFamily('song.WAV')).toBe('wav');
    expect(claimedFamily('audio/mpeg')).toBe('mp3');
    expect(claimedFamily('video/quicktime')).toBe('isobmff');
    expect(claimedFamily('video/mpeg')).toBe('mpeg');
    expect(claimedFamily('notes.txt')).toBeNull();
  });
});

describe('invalid inputs fail with a typed error naming the problem', () => {
  it.each([
    ['empty.wav', 'ENGINE.EMPTY_INPUT'],
    ['header-only.wav', 'ENGINE.EMPTY_INPUT'],
    ['text.wav', 'ENGINE.UNSUPPORTED_FORMAT'],
    ['truncated.wav', 'ENGINE.TRUNCATED_INPUT'],
    ['no-index.mp4', 'ENGINE.TRUNCATED_INPUT'],
    ['does-not-exist.wav', 'ENGINE.INPUT_NOT_FOUND'],
  ])('%s -> %s', async (name, code) => {
    expect(await codeOf(() => decodeAudio(file(name)))).toBe(code);
  });

  it('a truncated MP3 whose Xing header declares its length is reported as truncated', async () => {
    expect(await codeOf(() => decodeAudio(file('truncated.mp3')))).toBe('ENGINE.TRUNCATED_INPUT');
  });

  it('MP3 content named .wav is a format mismatch', async () => {
    const p = await probe(file('mp3-named.wav'));
    expect(() => assertAcceptable(p, { claimedType: 'mp3-named.wav' })).toThrow(
      expect.objectContaining({ code: 'ENGINE.FORMAT_MISMATCH' }),
    );
    expect(() => assertAcceptable(p, { claimedType: 'audio/mpeg' })).not.toThrow();
  });

  it('a video without an audio track is rejected', async () => {
    const p = await probe(file('silent.mp4'));
    expect(() => assertAcceptable(p)).toThrow(expect.objectContaining({ code: 'ENGINE.NO_AUDIO_TRACK' }));
  });

  it('an Ogg Vorbis file decodes but is not an accepted format', async () => {
    const p = await probe(file('tone.ogg'));
    expect(p.container).toBe('ogg');
    expect(() => assertAcceptable(p)).toThrow(expect.objectContaining({ code: 'ENGINE.UNSUPPORTED_FORMAT' }));
  });
});

describe('decoding to planar float', () => {
  it.each(['float.wav', 'pcm16.wav', 'pcm24.wav', 'pcm32.wav'])(
    '%s decodes the -6 dBFS tone within 0.01 dB',
    async (name) => {
      const { pcm } = await decodeAudio(file(name));
      expect(pcm.channels).toHaveLength(2);
      expect(pcm.sampleRate).toBe(44100);
      expect(pcm.channels[0]).toHaveLength(88200);
      let peak = 0;
      for (const v of pcm.channels[1]!) peak = Math.max(peak, Math.abs(v));
      expect(Math.abs(20 * Math.log10(peak) + 6)).toBeLessThan(0.01);
    },
  );

  it('decodes MP3 and the audio of every accepted video container', async () => {
    for (const name of ['tone.mp3', 'clip.mp4', 'clip.mov', 'clip.m4v', 'clip.mpg']) {
      const { pcm } = await decodeAudio(file(name));
      expect(pcm.channels.length).toBe(2);
      expect(Math.abs(pcm.channels[0]!.length / pcm.sampleRate - 2)).toBeLessThan(0.1);
    }
  });

  it('resamples and downmixes on request', async () => {
    const { pcm } = await decodeAudio(file('pcm16.wav'), { sampleRate: 48000, channels: 1 });
    expect(pcm.sampleRate).toBe(48000);
    expect(pcm.channels).toHaveLength(1);
    expect(Math.abs(pcm.channels[0]!.length - 96000)).toBeLessThanOrEqual(2);
  });
});

describe('resampling (soxr through ffmpeg)', () => {
  it('44.1 -> 48 kHz keeps a 1 kHz tone time-aligned (within 0.25 sample) and at level (0.01 dB)', async () => {
    const x = sine(1000, 44100, 1, -6);
    const y = await resamplePcm({ sampleRate: 44100, channels: [x] }, 48000);
    const out = y.channels[0]!;
    expect(out).toHaveLength(48000);
    // Compare against the ideal 48 kHz tone: amplitude and phase by projection on sin/cos.
    let s = 0;
    let c = 0;
    for (let i = 4800; i < 43200; i++) {
      s += out[i]! * Math.sin((2 * Math.PI * 1000 * i) / 48000);
      c += out[i]! * Math.cos((2 * Math.PI * 1000 * i) / 48000);
    }
    const amp = (2 * Math.hypot(s, c)) / 38400;
    const phaseSamples = (Math.atan2(c, s) / (2 * Math.PI)) * 48;
    expect(Math.abs(20 * Math.log10(amp) + 6)).toBeLessThan(0.01);
    expect(Math.abs(phaseSamples)).toBeLessThan(0.25);
  });
});

describe('a complete PCM or float WAV is read from its header, as ffprobe reads it', () => {
  const wavs = tempDir();
  const at = (name: string) => join(wavs.dir, name);
  /** A WAV with a hand-written header: `formatTag` 0xfffe writes WAVE_FORMAT_EXTENSIBLE with `subFormat`. */
  function handWritten(
    name: string,
    o: { tag: number; sub?: number; channels: number; rate: number; bits: number; frames: number; trailing?: boolean },
  ) {
    const align = (o.channels * o.bits) / 8;
    const data = o.frames * align;
    const extensible = o.tag === 0xfffe;
    const fmt = Buffer.alloc(extensible ? 40 : 16);
    fmt.writeUInt16LE(o.tag, 0);
    fmt.writeUInt16LE(o.channels, 2);
    fmt.writeUInt32LE(o.rate, 4);
    fmt.writeUInt32LE(o.rate * align, 8);
    fmt.writeUInt16LE(align, 12);
    fmt.writeUInt16LE(o.bits, 14);
    if (extensible) {
      fmt.writeUInt16LE(22, 16);
      fmt.writeUInt16LE(o.bits, 18);
      fmt.writeUInt32LE(o.channels === 2 ? 3 : 4, 20);
      fmt.writeUInt16LE(o.sub ?? 1, 24);
      // The rest of the KSDATAFORMAT GUID.
      Buffer.from('000000001000800000aa00389b71', 'hex').copy(fmt, 26);
    }
    const samples = Buffer.alloc(data + (data & 1));
    for (let i = 0; i < data; i += 1) samples[i] = (i * 37) & 0xff;
    const trailer = o.trailing
      ? Buffer.concat([Buffer.from('LIST'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO')])
      : Buffer.alloc(0);
    const chunk = (id: string, body: Buffer) => {
      const head = Buffer.alloc(8);
      head.write(id, 0, 'latin1');
      head.writeUInt32LE(id === 'data' ? data : body.length, 4);
      return Buffer.concat([head, body]);
    };
    const bodies = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', fmt), chunk('data', samples), trailer]);
    const riff = Buffer.alloc(8);
    riff.write('RIFF', 0, 'latin1');
    riff.writeUInt32LE(bodies.length, 4);
    writeFileSync(at(name), Buffer.concat([riff, bodies]));
  }
  const cases: Array<[string, () => void, boolean]> = [];
  const made = (name: string, codec: string, rate: number, channels: number, seconds: string) =>
    cases.push([
      name,
      () =>
        ffmpeg([
          '-f',
          'lavfi',
          '-i',
          `anoisesrc=d=${seconds}:r=${rate}`,
          '-ac',
          String(channels),
          '-c:a',
          codec,
          at(name),
        ]),
      true,
    ]);
  made('u8.wav', 'pcm_u8', 8000, 1, '0.3');
  made('s16-44k.wav', 'pcm_s16le', 44100, 2, '3.00001');
  made('s16-22k.wav', 'pcm_s16le', 22050, 1, '1.23457');
  made('s24-96k.wav', 'pcm_s24le', 96000, 2, '0.77777');
  made('s32-48k.wav', 'pcm_s32le', 48000, 6, '0.5');
  made('f32-11k.wav', 'pcm_f32le', 11025, 2, '2.99999');
  made('f64-88k.wav', 'pcm_f64le', 88200, 1, '0.1');
  cases.push([
    'ext-s24.wav',
    () => handWritten('ext-s24.wav', { tag: 0xfffe, sub: 1, channels: 2, rate: 44100, bits: 24, frames: 44_101 }),
    true,
  ]);
  cases.push([
    'ext-f32.wav',
    () => handWritten('ext-f32.wav', { tag: 0xfffe, sub: 3, channels: 2, rate: 48000, bits: 32, frames: 12_345 }),
    true,
  ]);
  cases.push([
    'odd-rate.wav',
    () => handWritten('odd-rate.wav', { tag: 1, channels: 1, rate: 7_777, bits: 8, frames: 10_001 }),
    true,
  ]);
  // Left to ffprobe: trailing chunks, another codec (A-law), and the in-between layouts.
  cases.push([
    'trailing.wav',
    () => handWritten('trailing.wav', { tag: 1, channels: 2, rate: 44100, bits: 16, frames: 4410, trailing: true }),
    false,
  ]);
  made('alaw.wav', 'pcm_alaw', 8000, 1, '0.5');
  cases[cases.length - 1]![2] = false;
  afterAll(() => wavs.cleanup());

  it.each(cases)('%s', async (name, make, fromHeader) => {
    make();
    const ffprobe = JSON.parse(
      execFileSync(
        toolPath('ffprobe'),
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', at(name)],
        {
          encoding: 'utf8',
        },
      ),
    ) as { format: { duration: string; format_name: string }; streams: Array<Record<string, unknown>> };
    const stream = ffprobe.streams[0]!;
    const wav = (await readWavHeader(at(name), statSync(at(name)).size))!;
    const known = probeCompleteWav(wav, statSync(at(name)).size);
    expect(known !== null).toBe(fromHeader);
    const probed = await probe(at(name));
    expect({
      formatName: probed.formatName,
      durationSec: probed.durationSec,
      audioDurationSec: probed.audioDurationSec,
      sampleRate: probed.sampleRate,
      channels: probed.channels,
      audioCodec: probed.audioCodec,
      hasAudio: probed.hasAudio,
      hasVideo: probed.hasVideo,
    }).toEqual({
      formatName: ffprobe.format.format_name,
      durationSec: Number(ffprobe.format.duration),
      audioDurationSec: Number(stream.duration),
      sampleRate: Number(stream.sample_rate),
      channels: stream.channels,
      audioCodec: stream.codec_name,
      hasAudio: true,
      hasVideo: false,
    });
    // Decoded without ffmpeg when nothing is to change (PCM or float, one or two channels, trailing chunks or not):
    // the same samples to the bit.
    const rate = probed.sampleRate!;
    const channels = probed.channels!;
    const plain = ['pcm_u8', 'pcm_s16le', 'pcm_s24le', 'pcm_s32le', 'pcm_f32le', 'pcm_f64le'];
    expect(directWav(probed, rate, channels) !== null).toBe(plain.includes(probed.audioCodec!) && channels <= 2);
    const direct = (await decodeAudio(at(name), { probe: probed })).pcm;
    const viaFfmpeg = (await decodeAudio(at(name), { probe: probed, viaFfmpeg: true })).pcm;
    expect(direct.sampleRate).toBe(viaFfmpeg.sampleRate);
    expect(direct.channels.map((ch) => ch.length)).toEqual(viaFfmpeg.channels.map((ch) => ch.length));
    direct.channels.forEach((ch, c) => {
      const other = viaFfmpeg.channels[c]!;
      const same = Buffer.from(ch.buffer, ch.byteOffset, ch.byteLength).equals(
        Buffer.from(other.buffer, other.byteOffset, other.byteLength),
      );
      expect({ name, channel: c, same }).toEqual({ name, channel: c, same: true });
    });
  });
});
