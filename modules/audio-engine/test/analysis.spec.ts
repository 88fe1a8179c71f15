import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { analyzePcm } from '../src/analysis/analyze';
import { thirdOctaveSpectrum } from '../src/analysis/spectrum';
import { ffmpegLoudness } from '../eval/metrics';
import { pinkNoise, sine, syntheticBand, toChannels } from '../eval/signals';
import { decodeAudio } from '../src/io/decode';
import { tempDir, writePcm } from './support/media';

const tmp = tempDir();
const file = (name: string) => join(tmp.dir, name);

beforeAll(async () => {
  await writePcm(file('band.wav'), syntheticBand({ sampleRate: 44100, seconds: 20 }), 'pcm24');
  const dynamic = syntheticBand({ sampleRate: 48000, seconds: 20, seed: 5 });
  for (const ch of dynamic.channels) for (let i = 0; i < ch.length; i++) if (i < 8 * 48000) ch[i]! *= 0.1;
  await writePcm(file('dynamic.wav'), dynamic, 'pcm24');
}, 30_000);

afterAll(() => tmp.cleanup());

describe('agreement with ffmpeg ebur128 on music', () => {
  it.each(['band.wav', 'dynamic.wav'])(
    '%s: integrated within 0.1 LU, LRA within 0.2 LU, true peak within 0.2 dB',
    async (name) => {
      const { pcm } = await decodeAudio(file(name));
      const ours = await analyzePcm(pcm);
      const theirs = await ffmpegLoudness(file(name));
      expect(Math.abs(ours.integratedLufs - theirs.integratedLufs)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(ours.loudnessRangeLu - theirs.lraLu)).toBeLessThanOrEqual(0.2);
      expect(Math.abs(ours.truePeakDbtp - theirs.truePeakDbtp)).toBeLessThanOrEqual(0.2);
    },
  );
});

describe('1/3-octave spectrum', () => {
  it('reads a full-scale 1 kHz sine as -3.01 dB in the 1 kHz band and far less elsewhere', async () => {
    const s = await thirdOctaveSpectrum([sine(1000, 48000, 2, 0)], 48000);
    const i = s.bandsHz.indexOf(1000);
    expect(Math.abs(s.levelsDb[i]! + 3.01)).toBeLessThan(0.1);
    expect(s.levelsDb[i - 3]!).toBeLessThan(-40);
    expect(s.levelsDb[i + 3]!).toBeLessThan(-40);
  });

  it('reads pink noise as flat (+-1 dB) from 50 Hz to 16 kHz', async () => {
    const s = await thirdOctaveSpectrum([pinkNoise(48000 * 8, 0.1, 2)], 48000);
    const bands = s.bandsHz.map((f, i) => [f, s.levelsDb[i]!] as const).filter(([f]) => f >= 50 && f <= 16000);
    const mean = bands.reduce((a, [, v]) => a + v, 0) / bands.length;
    for (const [, v] of bands) expect(Math.abs(v - mean)).toBeLessThan(1);
  });
});

describe('stereo and peaks', () => {
  it('measures correlation +1 for identical channels and -1 for inverted ones', async () => {
    const x = sine(440, 44100, 1, -10);
    const same = await analyzePcm({ sampleRate: 44100, channels: toChannels(x, 2) }, { spectrum: false });
    expect(same.stereo!.correlation).toBeCloseTo(1, 6);
    const inverted = await analyzePcm({ sampleRate: 44100, channels: [x, x.map((v) => -v)] }, { spectrum: false });
    expect(inverted.stereo!.correlation).toBeCloseTo(-1, 6);
    expect(inverted.stereo!.sideToMidDb).toBe(Infinity);
  });

  it('measures crest factor 3.01 dB for a sine and counts clipped runs', async () => {
    const x = sine(997, 44100, 2, -6);
    const r = await analyzePcm({ sampleRate: 44100, channels: [x] }, { spectrum: false });
    expect(Math.abs(r.crestFactorDb - 3.01)).toBeLessThan(0.02);
    expect(r.stereo).toBeNull();
    const clipped = x.map((v) => Math.max(-0.3, Math.min(0.3, v)) / 0.3);
    const c = await analyzePcm({ sampleRate: 44100, channels: [clipped] }, { spectrum: false });
    expect(c.clippedSamples).toBeGreaterThan(1000);
    expect(r.clippedSamples).toBe(0);
  });

  it('reports silence as -Infinity loudness (null in JSON) rather than a number', async () => {
    const r = await analyzePcm({ sampleRate: 48000, channels: [new Float32Array(48000)] });
    expect(r.integratedLufs).toBe(-Infinity);
    expect(JSON.parse(JSON.stringify({ v: r.integratedLufs })).v).toBeNull();
  });
});
