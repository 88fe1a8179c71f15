import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../src/errors';
import { sine, toChannels } from '../src/eval/signals';
import { decodeAudio } from '../src/io/decode';
import { assertAcceptable, claimedFamily, probe, sniffContainer } from '../src/io/probe';
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
