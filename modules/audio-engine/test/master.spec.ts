import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureLoudness } from '../src/analysis/loudness';
import { analyzePcm } from '../src/analysis/analyze';
import { filterInPlace, highShelf, lowpass } from '../src/dsp/biquad';
import { decodeAudio } from '../src/io/decode';
import { curveOf, spectralDistanceDb } from '../src/master/match';
import { ffmpegLoudness } from '../eval/metrics';
import { syntheticBand } from '../eval/signals';
import { runJobInline } from '../src/job/run-inline';
import type { MasterReport } from '../src/master/report';
import type { Pcm } from '../src/pcm';
import type { MasterResult } from '../src/master/report';
import { ffprobeJson, tempDir, writePcm } from './support/media';

const tmp = tempDir();
const file = (name: string) => join(tmp.dir, name);
const SECONDS = 12;

function scaled(pcm: Pcm, targetLufs: number): Pcm {
  const now = measureLoudness(pcm.channels, pcm.sampleRate).integratedLufs;
  const g = Math.pow(10, (targetLufs - now) / 20);
  return { sampleRate: pcm.sampleRate, channels: pcm.channels.map((c) => c.map((v) => v * g)) };
}

beforeAll(async () => {
  const band = syntheticBand({ sampleRate: 44100, seconds: SECONDS });
  await writePcm(file('normal.wav'), band, 'pcm16');
  await writePcm(file('quiet.wav'), scaled(band, -38), 'pcm24');
  // Very loud: pushed to about -7 LUFS and hard-clipped at full scale, as a careless "loudness war" bounce.
  const loud = scaled(band, -4);
  for (const ch of loud.channels) for (let i = 0; i < ch.length; i++) ch[i] = Math.max(-1, Math.min(1, ch[i]!));
  await writePcm(file('loud.wav'), loud, 'pcm16');
  // Very dynamic: 3 s sections alternating 30 dB apart.
  const dynamic = scaled(band, -20);
  const block = 3 * 44100;
  for (const ch of dynamic.channels)
    for (let i = 0; i < ch.length; i++) if (Math.floor(i / block) % 2 === 0) ch[i]! *= 0.0316;
  await writePcm(file('dynamic.wav'), dynamic, 'pcm24');
  await writePcm(file('mono.wav'), { sampleRate: 44100, channels: [band.channels[0]!] }, 'pcm16');
  await writePcm(file('band48.wav'), syntheticBand({ sampleRate: 48000, seconds: SECONDS, seed: 9 }), 'pcm24');
  // A bright, loud reference: +6 dB shelf above 4 kHz, at -10 LUFS.
  const ref = syntheticBand({ sampleRate: 44100, seconds: SECONDS, seed: 4 });
  await filterInPlace(ref, [highShelf(4000, 44100, 6)]);
  await writePcm(file('reference.wav'), scaled(ref, -10), 'float32');
  // References of three loudnesses, 8 s each: a moderate -12 and a quiet -18 LUFS one scaled, and a loud -7 LUFS one
  // clipped just under full scale (rescaled and clipped until it reads -7; its inter-sample peaks pass -1 dBTP).
  const other = syntheticBand({ sampleRate: 44100, seconds: 8, seed: 6 });
  await writePcm(file('ref-12.wav'), scaled(other, -12), 'float32');
  await writePcm(file('ref-18.wav'), scaled(other, -18), 'float32');
  let loudRef = other;
  for (let pass = 0; pass < 8; pass++) {
    loudRef = scaled(loudRef, -7);
    for (const ch of loudRef.channels)
      for (let i = 0; i < ch.length; i++) ch[i] = Math.max(-0.89, Math.min(0.89, ch[i]!));
  }
  await writePcm(file('ref-7.wav'), loudRef, 'float32');
}, 30_000);

afterAll(() => tmp.cleanup());

async function master(input: string, options: Record<string, unknown> = {}): Promise<MasterResult> {
  const outDir = file(`out-${input}-${Object.values(options).join('-')}`);
  const result = await runJobInline({ kind: 'master', input: file(input), outDir, options });
  if (result.kind !== 'master') throw new Error('unexpected result');
  return result;
}

describe('mastering lands on target under the true-peak ceiling (measured by ffmpeg ebur128)', () => {
  it.each([
    ['normal.wav', 'normal mix at -21 LUFS'],
    ['quiet.wav', 'quiet mix at -38 LUFS'],
    ['loud.wav', 'very loud, clipped mix'],
    ['dynamic.wav', 'very dynamic mix (30 dB steps)'],
    ['mono.wav', 'mono mix'],
    ['band48.wav', '48 kHz mix'],
  ])('%s (%s): both masters within 0.5 LU of -14 LUFS and at most -1.0 dBTP', async (name) => {
    const result = await master(name);
    for (const out of [result.outputs.master44, result.outputs.master48]) {
      const m = await ffmpegLoudness(out);
      expect(Math.abs(m.integratedLufs + 14)).toBeLessThanOrEqual(0.5);
      expect(m.truePeakDbtp).toBeLessThanOrEqual(-1.0);
    }
    expect(Math.abs(result.report.after.integratedLufs + 14)).toBeLessThanOrEqual(0.5);
    expect(result.report.after.truePeakDbtp).toBeLessThanOrEqual(-1.0);
  });
});

describe('mono is mastered as it plays (dual mono)', () => {
  it('a mono master reads -14 LUFS as dual mono (ffmpeg dualmono) and 3 dB lower as one channel', async () => {
    const result = await master('mono.wav');
    expect(result.report.after.channels).toBe(1);
    const asPlayed = await ffmpegLoudness(result.outputs.master44);
    const oneChannel = await ffmpegLoudness(result.outputs.master44, { dualMono: false });
    expect(Math.abs(asPlayed.integratedLufs + 14)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(asPlayed.integratedLufs - oneChannel.integratedLufs - 3.01)).toBeLessThan(0.05);
    // The report states the loudness as played.
    expect(Math.abs(result.report.after.integratedLufs - asPlayed.integratedLufs)).toBeLessThan(0.1);
  });
});

describe('mastering outputs', () => {
  let result: MasterResult;
  beforeAll(async () => {
    result = await master('normal.wav', { style: 'POP', intensity: 'high' });
  }, 30_000);

  it('writes 44.1 kHz/16-bit and 48 kHz/24-bit WAVs, an MP3 preview and report.json, and nothing else', () => {
    const dir = join(result.outputs.master44, '..');
    expect(readdirSync(dir).sort()).toEqual([
      'master_44100_16.wav',
      'master_48000_24.wav',
      'preview.mp3',
      'report.json',
    ]);
    const a = ffprobeJson(result.outputs.master44).streams[0]!;
    expect(a).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: '44100', channels: 2 });
    const b = ffprobeJson(result.outputs.master48).streams[0]!;
    expect(b).toMatchObject({ codec_name: 'pcm_s24le', sample_rate: '48000', channels: 2 });
    const p = ffprobeJson(result.outputs.preview);
    expect(p.streams[0]).toMatchObject({ codec_name: 'mp3' });
    expect(Number(p.format.duration)).toBeLessThanOrEqual(SECONDS + 0.1);
  });

  it('keeps the length of the input in both masters (within one sample per rate)', () => {
    expect(
      Math.abs(Number(ffprobeJson(result.outputs.master44).streams[0]!.duration_ts) - SECONDS * 44100),
    ).toBeLessThanOrEqual(1);
    expect(
      Math.abs(Number(ffprobeJson(result.outputs.master48).streams[0]!.duration_ts) - SECONDS * 48000),
    ).toBeLessThanOrEqual(1);
  });

  it('reports before/after analysis and every decision, and report.json matches the returned report', () => {
    const r = result.report;
    expect(r.settings).toMatchObject({ targetLufs: -14, style: 'POP', intensity: 'high', targetSource: 'default' });
    expect(r.before.spectrum.levelsDb).toHaveLength(30);
    expect(r.after.spectrum.levelsDb).toHaveLength(30);
    // One EQ band per octave point below 0.45 of the rate (all ten at 44.1 kHz).
    expect(r.decisions.tonal.eq.map((band) => band.freqHz)).toEqual([
      31.5, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000,
    ]);
    // Three bands, or none when the compressor is bypassed.
    expect(r.decisions.dynamics.bands).toHaveLength(r.decisions.dynamics.bypassed ? 0 : 3);
    expect(r.decisions.stereo.monoBelowHz).toBe(120);
    // The gain search starts at one iteration and stops at twelve.
    expect(r.decisions.limiter.searchIterations).toBeGreaterThanOrEqual(1);
    expect(r.decisions.limiter.searchIterations).toBeLessThanOrEqual(12);
    const json = JSON.parse(readFileSync(result.outputs.report, 'utf8')) as MasterReport;
    expect(json.settings).toEqual(r.settings);
    expect(Math.abs(json.after.integratedLufs - r.after.integratedLufs)).toBeLessThan(0.001);
  });

  it('keeps the low end mono below 120 Hz', async () => {
    const { decodeAudio } = await import('../src/io/decode');
    const { pcm } = await decodeAudio(result.outputs.master44);
    const { lowpass, BiquadChain } = await import('../src/dsp/biquad');
    const side = pcm.channels[0]!.map((l, i) => (l - pcm.channels[1]![i]!) / 2);
    const mid = pcm.channels[0]!.map((l, i) => (l + pcm.channels[1]![i]!) / 2);
    const lp = lowpass(60, 44100);
    new BiquadChain([lp, lp, lp]).run(side, side);
    new BiquadChain([lp, lp, lp]).run(mid, mid);
    let s = 0;
    let m = 0;
    for (let i = 0; i < side.length; i++) {
      s += side[i]! ** 2;
      m += mid[i]! ** 2;
    }
    // Below 60 Hz the side signal is more than 30 dB under the mid signal.
    expect(10 * Math.log10(s / m)).toBeLessThan(-30);
  });
});

describe('options', () => {
  it('loudness presets set the target (club = -9 LUFS)', async () => {
    const result = await master('normal.wav', { target: 'club', intensity: 'low' });
    expect(result.report.settings.targetLufs).toBe(-9);
    const m = await ffmpegLoudness(result.outputs.master44);
    expect(Math.abs(m.integratedLufs + 9)).toBeLessThanOrEqual(0.5);
    expect(m.truePeakDbtp).toBeLessThanOrEqual(-1.0);
  });

  it('reference mastering takes the reference loudness and moves the tonal balance toward it', async () => {
    const result = await master('normal.wav', { reference: file('reference.wav') });
    const r = result.report;
    expect(r.settings.targetSource).toBe('reference');
    expect(Math.abs(r.settings.targetLufs + 10)).toBeLessThan(0.2);
    const m = await ffmpegLoudness(result.outputs.master44);
    expect(Math.abs(m.integratedLufs + 10)).toBeLessThanOrEqual(0.5);
    // The reference is 6 dB brighter above 4 kHz: the EQ must lift the top relative to the low mids.
    const eq = new Map(r.decisions.tonal.eq.map((b) => [b.freqHz, b.gainDb]));
    expect(eq.get(8000)! - eq.get(250)!).toBeGreaterThan(1);
  });

  // The loud reference's peaks pass the ceiling: under -1 dBTP this input tops out near -8 LUFS however hard it is
  // limited, so the report has to say so; the other two are reachable and must be reached.
  it.each([
    ['ref-7.wav', 'loud, -7 LUFS', 'true-peak-ceiling'],
    ['ref-12.wav', 'moderate, -12 LUFS', null],
    ['ref-18.wav', 'quiet, -18 LUFS', null],
  ])(
    'reference %s (%s): the master lands within 0.5 LU of its loudness, or the report says why not (%s) and what it reached',
    async (name, _label, limit) => {
      const reference = await ffmpegLoudness(file(name));
      const result = await master('normal.wav', { reference: file(name) });
      const outcome = result.report.loudnessTarget;
      expect(outcome.limitedBy).toBe(limit);
      const m = await ffmpegLoudness(result.outputs.master44);
      expect(m.truePeakDbtp).toBeLessThanOrEqual(-1.0);
      expect(Math.abs(outcome.requestedLufs - reference.integratedLufs)).toBeLessThan(0.1);
      // The report's achieved figure is the measured one.
      expect(Math.abs(outcome.achievedLufs - m.integratedLufs)).toBeLessThan(0.1);
      // Never further from the reference than the input was (the measure-and-correct rule).
      expect(result.report.referenceMatch!.distanceAfterDb).toBeLessThanOrEqual(
        result.report.referenceMatch!.distanceBeforeDb,
      );
      if (outcome.reached) {
        expect(outcome.limitedBy).toBeNull();
        expect(Math.abs(m.integratedLufs - reference.integratedLufs)).toBeLessThanOrEqual(0.5);
      } else {
        expect(m.integratedLufs).toBeLessThan(reference.integratedLufs - 0.5);
        expect(['true-peak-ceiling', 'max-limiting', 'target-range']).toContain(outcome.limitedBy);
      }
    },
  );

  it('reference mastering matches the 1/3-octave balance, closer than before, and reports both curves', async () => {
    const result = await master('normal.wav', { reference: file('reference.wav') });
    const match = result.report.referenceMatch!;
    expect(match.method).toBe('third-octave filter bank');
    expect(match.bandsHz).toHaveLength(30);
    for (const curve of [match.referenceDb, match.inputDb, match.masterDb]) expect(curve).toHaveLength(30);
    // One section per 1/3-octave band from 25 Hz to 0.45 fs (16 kHz at 44.1 kHz): 29.
    expect(match.passes[0]!.sections).toHaveLength(29);
    // Measured independently on the written files: the master is far closer to the reference than the input was.
    const curveOfFile = async (name: string) => {
      const { pcm } = await decodeAudio(name);
      const a = await analyzePcm(pcm);
      return curveOf(a.spectrum, a.integratedLufs, pcm.sampleRate);
    };
    const ref = await curveOfFile(file('reference.wav'));
    const before = spectralDistanceDb(await curveOfFile(file('normal.wav')), ref);
    const after = spectralDistanceDb(await curveOfFile(result.outputs.master44), ref);
    expect(after).toBeLessThan(before / 2);
    expect(Math.abs(after - match.distanceAfterDb)).toBeLessThan(0.1);
    expect(match.closer).toBe(true);
  });

  it('never boosts a band the input does not play, whatever the reference asks', async () => {
    // The input has nothing above ~5 kHz (four 2nd-order low-passes at 3 kHz); the reference is 6 dB brighter up top.
    const band = syntheticBand({ sampleRate: 44100, seconds: SECONDS, seed: 12 });
    await filterInPlace(band, [lowpass(3000, 44100), lowpass(3000, 44100), lowpass(3000, 44100), lowpass(3000, 44100)]);
    await writePcm(file('dull.wav'), scaled(band, -20), 'float32');
    const result = await master('dull.wav', { reference: file('reference.wav') });
    const match = result.report.referenceMatch!;
    const refused = match.passes.flatMap((p) => p.refusedBoostHz);
    expect(refused).toEqual(expect.arrayContaining([12500, 16000]));
    const loudest = Math.max(...result.report.before.spectrum.levelsDb.filter((v) => Number.isFinite(v)));
    match.bandsHz.forEach((hz, i) => {
      const level = result.report.before.spectrum.levelsDb[i]!;
      if (hz > 16000 || (Number.isFinite(level) && level >= loudest - 45)) return;
      // The applied filter bank's response in an unplayed band: never a boost.
      expect(match.appliedDb[i]!).toBeLessThanOrEqual(0.5);
    });
  });

  it('rejects unknown styles and out-of-range targets with ENGINE.INVALID_OPTIONS', async () => {
    await expect(master('normal.wav', { style: 'POLKA' })).rejects.toMatchObject({ code: 'ENGINE.INVALID_OPTIONS' });
    await expect(master('normal.wav', { target: 3 })).rejects.toMatchObject({ code: 'ENGINE.INVALID_OPTIONS' });
  });

  it('a failing job leaves no output file behind', async () => {
    const outDir = file('failed');
    await expect(
      runJobInline({ kind: 'master', input: file('normal.wav'), outDir, options: { reference: file('missing.wav') } }),
    ).rejects.toMatchObject({ code: 'ENGINE.INPUT_NOT_FOUND' });
    expect(existsSync(outDir) ? readdirSync(outDir) : []).toEqual([]);
  });
});
