import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { integratedLufs } from '../src/analysis/loudness';
import { buildRequest, parseArgs, UsageError } from '../src/cli';
import { ffmpegLoudness } from '../eval/metrics';
import { decodeAudio } from '../src/io/decode';
import { runJobInline } from '../src/job/run-inline';
import { trackFileNames } from '../src/mix/request';
import type { MixReport } from '../src/mix/report';
import { renderReverb, STYLE_REVERB } from '../src/mix/reverb';
import { guessInstrumentGroup } from '../src/mix/settings';
import type { Pcm } from '../src/pcm';
import type { MixResult } from '../src/mix/report';
import type { MixJob } from '../src/types';
import { ENGINE_DIST, buildDist } from './support/build';
import { ffmpeg, ffprobeJson, tempDir, writePcm } from './support/media';
import { testSong } from './support/music';

const tmp = tempDir();
const file = (name: string) => join(tmp.dir, name);
const song = testSong(14, 44100, 3);
const energy = (x: Float32Array) => x.reduce((a, v) => a + v * v, 0);
const balanceDb = (p: Pcm) => 10 * Math.log10(energy(p.channels[0]!) / energy(p.channels[1]!));

beforeAll(async () => {
  buildDist();
  await writePcm(file('Lead Vox.wav'), song.parts.vocals, 'pcm24');
  await writePcm(file('drums.wav'), song.parts.drums, 'pcm16');
  // The bass as a mono file at 48 kHz (resampled and made stereo by the mixer).
  const bass48 = (
    await decodeAudio(await writePcm(file('bass-tmp.wav'), song.parts.bass, 'float32'), {
      sampleRate: 48000,
      channels: 1,
    })
  ).pcm;
  await writePcm(file('Bass DI.wav'), bass48, 'pcm24');
  // The chords two seconds shorter than the rest (padded with silence by the mixer).
  const short: Pcm = {
    sampleRate: 44100,
    channels: song.parts.chords.channels.map((c) => c.slice(0, c.length - 2 * 44100)),
  };
  await writePcm(file('piano chords.wav'), short, 'pcm24');
  ffmpeg(['-i', file('drums.wav'), '-c:a', 'libmp3lame', '-b:a', '128k', file('drums.mp3')]);
}, 60_000);

afterAll(() => tmp.cleanup());

describe('instrument group guess (the spec keyword order)', () => {
  it.each([
    ['Kick In.wav', 'kick'],
    ['snare_top.WAV', 'snare'],
    ['HiHat.wav', 'cymbals'],
    ['hi-hat close.wav', 'cymbals'],
    ['crash cymbal.wav', 'cymbals'],
    ['Drums Overhead.wav', 'drums'],
    ['bass drum.wav', 'drums'],
    ['Bass DI.wav', 'bass'],
    ['Lead Vox.wav', 'vocal'],
    ['backing vocals.wav', 'vocal'],
    ['voice memo.wav', 'vocal'],
    ['perc loop.wav', 'percs'],
    ['Strings.wav', 'strings'],
    ['synth pad.wav', 'synth'],
    ['FX riser.wav', 'fx'],
    ['sound effect.wav', 'fx'],
    ['piano chords.wav', 'keys'],
    ['Keys.wav', 'keys'],
    ['trumpet.wav', 'brass'],
    ['alto sax.wav', 'brass'],
    ['electric guitar L.wav', 'e_guitar'],
    ['acoustic_guitar.wav', 'acoustic_guitar'],
    ['backing track.wav', 'backing_track'],
    ['guitar.wav', 'other_group1'],
    ['take 3.wav', 'other_group1'],
  ])('%s -> %s', (name, group) => {
    expect(guessInstrumentGroup(name)).toBe(group);
  });
});

describe('shared reverb', () => {
  it('is linear: the reverbs of two sends add up to the reverb of their sum (within 1e-5)', () => {
    const n = 44100;
    const a = Float32Array.from({ length: n }, (_, i) => (i % 5000 < 50 ? 0.5 : 0));
    const b = Float32Array.from({ length: n }, (_, i) => 0.2 * Math.sin(i * 0.05) * (i < 8000 ? 1 : 0));
    const run = (x: Float32Array) => {
      const l = new Float32Array(n);
      const r = new Float32Array(n);
      renderReverb([x, x.map((v) => 0.5 * v)], 44100, STYLE_REVERB.POP, l, r);
      return [l, r];
    };
    const [al, ar] = run(a);
    const [bl, br] = run(b);
    const [sl, sr] = run(a.map((v, i) => v + b[i]!));
    let err = 0;
    for (let i = 0; i < n; i++)
      err = Math.max(err, Math.abs(al![i]! + bl![i]! - sl![i]!), Math.abs(ar![i]! + br![i]! - sr![i]!));
    expect(err).toBeLessThan(1e-5);
    expect(energy(sl!)).toBeGreaterThan(0);
  });

  it('keeps a panned send on its side (a left-only send comes back louder on the left)', () => {
    const n = 44100;
    const x = Float32Array.from({ length: n }, (_, i) => (i < 4410 ? Math.sin(i * 0.3) : 0));
    const l = new Float32Array(n);
    const r = new Float32Array(n);
    renderReverb([x, new Float32Array(n)], 44100, STYLE_REVERB.POP, l, r);
    expect(10 * Math.log10(energy(l) / energy(r))).toBeGreaterThan(6);
  });
});

describe('mix job', () => {
  let result: MixResult;
  beforeAll(async () => {
    result = (await runJobInline({
      kind: 'mix',
      outDir: file('mix'),
      inputs: [
        {
          path: file('Lead Vox.wav'),
          name: 'Lead Vox.wav',
          settings: { presenceSetting: 'LEAD', reverbPreference: 'MEDIUM' },
        },
        { path: file('drums.wav'), name: 'drums.wav', settings: { reverbPreference: 'LOW' } },
        { path: file('Bass DI.wav'), name: 'Bass DI.wav' },
        {
          path: file('piano chords.wav'),
          name: 'piano chords.wav',
          settings: { panPreference: 'RIGHT', presenceSetting: 'BACKGROUND' },
        },
      ],
      options: { style: 'POP', sampleRate: 48000 },
    })) as MixResult;
  }, 60_000);

  it('writes mix.wav at the requested rate, tracks/<name>.wav for every track, preview.mp3 and report.json', () => {
    expect(readdirSync(file('mix')).sort()).toEqual(['mix.wav', 'preview.mp3', 'report.json', 'tracks']);
    expect(readdirSync(file('mix/tracks')).sort()).toEqual([
      'Bass_DI.wav',
      'Lead_Vox.wav',
      'drums.wav',
      'piano_chords.wav',
    ]);
    expect(Object.keys(result.outputs.tracks).sort()).toEqual([
      'Bass DI.wav',
      'Lead Vox.wav',
      'drums.wav',
      'piano chords.wav',
    ]);
    const info = ffprobeJson(result.outputs.mix).streams[0]!;
    expect(Number(info.sample_rate)).toBe(48000);
    expect(Number(info.bits_per_raw_sample ?? info.bits_per_sample)).toBe(24);
    expect(result.durationSec).toBeCloseTo(14, 1);
  });

  it('lands on the loudness target under -1 dBTP (measured by ffmpeg ebur128)', async () => {
    const m = await ffmpegLoudness(result.outputs.mix);
    expect(Math.abs(m.integratedLufs - -14)).toBeLessThan(0.5);
    expect(m.truePeakDbtp).toBeLessThanOrEqual(-1);
  });

  it('puts the LEAD track at least 3 LU above the NORMAL ones and the BACKGROUND one below them, in the mix', async () => {
    const lufs = new Map<string, number>();
    for (const [name, path] of Object.entries(result.outputs.tracks)) {
      const pcm = (await decodeAudio(path)).pcm;
      lufs.set(name, integratedLufs(pcm.channels, pcm.sampleRate));
    }
    const normal = Math.max(lufs.get('drums.wav')!, lufs.get('Bass DI.wav')!);
    expect(lufs.get('Lead Vox.wav')! - normal).toBeGreaterThanOrEqual(3);
    expect(lufs.get('piano chords.wav')!).toBeLessThan(Math.min(lufs.get('drums.wav')!, lufs.get('Bass DI.wav')!));
  });

  it('honours pan preferences (RIGHT lands right even though the part was bounced hard left) and centres the low end and the lead', async () => {
    const right = (await decodeAudio(result.outputs.tracks['piano chords.wav']!)).pcm;
    expect(balanceDb(right)).toBeLessThan(-3);
    for (const name of ['Lead Vox.wav', 'Bass DI.wav']) {
      const pcm = (await decodeAudio(result.outputs.tracks[name]!)).pcm;
      expect(Math.abs(balanceDb(pcm))).toBeLessThan(1);
    }
  });

  it('reports every decision per track: group (guessed), gain, EQ, compression, pan and reverb send', () => {
    const report = JSON.parse(readFileSync(result.outputs.report, 'utf8')) as MixReport;
    const byName = new Map(report.tracks.map((t) => [t.name, t]));
    expect(byName.get('Bass DI.wav')!.settings).toMatchObject({
      instrumentGroup: 'bass',
      groupSource: 'guessed',
      presenceSetting: 'NORMAL',
    });
    expect(byName.get('Bass DI.wav')!.input).toMatchObject({ sampleRate: 48000, channels: 1, resampled: false });
    expect(byName.get('piano chords.wav')!.input.paddedSec).toBeCloseTo(2, 1);
    for (const t of report.tracks) {
      expect(Number.isFinite(t.decisions.gainDb)).toBe(true);
      expect(t.decisions.eq[0]).toMatchObject({ type: 'highpass' });
      expect(t.decisions.compression).toMatchObject({ ratio: expect.any(Number), thresholdDb: expect.any(Number) });
      expect(typeof t.decisions.pan.position).toBe('number');
    }
    expect(byName.get('Lead Vox.wav')!.decisions.reverbSendDb).toBe(-12);
    expect(byName.get('Bass DI.wav')!.decisions.reverbSendDb).toBeNull();
    expect(report.master.limiter.inputGainDb).toEqual(expect.any(Number));
    expect(report.settings).toMatchObject({ style: 'POP', sampleRate: 48000, targetLufs: -14 });
  });

  it('never clips a track file (24-bit unless a track exceeds full scale, then 32-bit float)', () => {
    const report = JSON.parse(readFileSync(result.outputs.report, 'utf8')) as MixReport;
    for (const t of report.tracks) {
      if (t.inMix.encoding === 'pcm24') expect(t.inMix.truePeakDbtp).toBeLessThan(0.5);
    }
  });
});

describe('mix validation', () => {
  const track = (name: string) => ({ path: file(name), name });
  it.each([
    ['one track', [track('drums.wav')], 'ENGINE.INVALID_OPTIONS'],
    ['six tracks', Array.from({ length: 6 }, () => track('drums.wav')), 'ENGINE.INVALID_OPTIONS'],
    [
      'an unknown pan',
      [track('drums.wav'), { ...track('Lead Vox.wav'), settings: { panPreference: 'UP' } }],
      'ENGINE.INVALID_OPTIONS',
    ],
    ['an MP3 file', [track('drums.mp3'), track('Lead Vox.wav')], 'ENGINE.FORMAT_MISMATCH'],
  ])('rejects %s', async (_, inputs, code) => {
    await expect(
      runJobInline({
        kind: 'mix',
        outDir: file('bad'),
        inputs: inputs as never,
        options: { style: 'POP', sampleRate: 44100 },
      }),
    ).rejects.toMatchObject({ code });
  });

  it('rejects a sample rate other than 44100 or 48000', async () => {
    await expect(
      runJobInline({
        kind: 'mix',
        outDir: file('bad'),
        inputs: [track('drums.wav'), track('Lead Vox.wav')],
        options: { style: 'POP', sampleRate: 96000 as 48000 },
      }),
    ).rejects.toMatchObject({ code: 'ENGINE.INVALID_OPTIONS' });
  });

  it('names track files safely and uniquely', () => {
    expect(trackFileNames(['a b.wav', 'a b.wav', '../x.wav', 'é.wav'])).toEqual([
      'a_b.wav',
      'a_b-2.wav',
      'x.wav',
      'track.wav',
    ]);
  });
});

describe('mix from the command line', () => {
  it('mix <outdir> --style --rate --settings <files...> writes the mix and applies the settings file', async () => {
    await writeFile(
      file('settings.json'),
      JSON.stringify([
        { fileName: 'Lead Vox.wav', presenceSetting: 'LEAD', panPreference: 'CENTRE', reverbPreference: 'LOW' },
      ]),
    );
    const r = spawnSync(
      process.execPath,
      [
        join(ENGINE_DIST, 'cli.js'),
        'mix',
        file('cli-mix'),
        '--style',
        'hiphop_grime',
        '--rate',
        '44100',
        '--settings',
        file('settings.json'),
        '--quiet',
        file('Lead Vox.wav'),
        file('drums.wav'),
      ],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { report: MixReport };
    expect(out.report.settings.style).toBe('HIPHOP_GRIME');
    expect(out.report.tracks[0]!.settings).toMatchObject({
      presenceSetting: 'LEAD',
      reverbPreference: 'LOW',
      instrumentGroup: 'vocal',
    });
  }, 30_000);
});

describe('mix settings file (the spec batch, an array, an object keyed by file name)', () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, [join(ENGINE_DIST, 'cli.js'), 'mix', ...args, '--quiet'], { encoding: 'utf8' });
  const request = (args: string[], notes: string[] = []) =>
    buildRequest(parseArgs(['mix', ...args]), tmp.dir, (m) => notes.push(m)) as MixJob;
  const settingsFile = async (name: string, json: unknown) => {
    await writeFile(file(name), JSON.stringify(json));
    return file(name);
  };

  it('mixes the batch { musicalStyle, sampleRate, tracks } with its files and settings when no file is given', async () => {
    const settings = await settingsFile('batch.json', {
      musicalStyle: 'ACOUSTIC',
      sampleRate: 48000,
      tracks: [
        { fileName: 'Lead Vox.wav', presenceSetting: 'LEAD', panPreference: 'CENTRE', reverbPreference: 'HIGH' },
        { fileName: 'piano chords.wav', instrumentGroup: 'strings', panPreference: 'LEFT' },
      ],
    });
    const r = cli([file('cli-batch'), '--settings', settings]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(readFileSync(file('cli-batch/report.json'), 'utf8')) as MixReport;
    expect(report.settings).toMatchObject({ style: 'ACOUSTIC', sampleRate: 48000 });
    expect(report.output.sampleRate).toBe(48000);
    const byName = new Map(report.tracks.map((t) => [t.name, t]));
    expect([...byName.keys()]).toEqual(['Lead Vox.wav', 'piano chords.wav']);
    expect(byName.get('Lead Vox.wav')!.settings).toEqual({
      instrumentGroup: 'vocal',
      groupSource: 'guessed',
      presenceSetting: 'LEAD',
      panPreference: 'CENTRE',
      reverbPreference: 'HIGH',
    });
    expect(byName.get('Lead Vox.wav')!.decisions.reverbSendDb).not.toBeNull();
    expect(byName.get('piano chords.wav')!.settings).toEqual({
      instrumentGroup: 'strings',
      groupSource: 'given',
      presenceSetting: 'NORMAL',
      panPreference: 'LEFT',
      reverbPreference: 'NONE',
    });
    expect(byName.get('piano chords.wav')!.decisions.pan.position).toBeLessThan(0);
  }, 60_000);

  it('matches the batch entries to the given files (path, base name, or name without extension)', async () => {
    const settings = await settingsFile('batch-files.json', {
      tracks: [
        { fileName: 'Lead Vox', reverbPreference: 'LOW' },
        { fileName: 'sub/../drums.wav', instrumentGroup: 'percs', presenceSetting: null },
      ],
    });
    const job = request(['out', '--settings', settings, 'Lead Vox.wav', 'drums.wav', 'Bass DI.wav']);
    expect(job.inputs.map((i) => [i.name, i.settings])).toEqual([
      ['Lead Vox.wav', { reverbPreference: 'LOW' }],
      ['drums.wav', { instrumentGroup: 'percs' }],
      ['Bass DI.wav', undefined],
    ]);
    expect(job.options).toMatchObject({ style: 'POP', sampleRate: 44100 });
  });

  it('lets --style and --rate win over the batch, with a note', async () => {
    const settings = await settingsFile('batch-style.json', { musicalStyle: 'METAL', sampleRate: 48000, tracks: [] });
    const notes: string[] = [];
    const job = request(['out', '--settings', settings, '--style', 'pop', '--rate', '44100', 'a.wav', 'b.wav'], notes);
    expect(job.options).toMatchObject({ style: 'POP', sampleRate: 44100 });
    expect(notes).toEqual([
      `note: --style POP overrides musicalStyle METAL of ${settings}`,
      `note: --rate 44100 overrides sampleRate 48000 of ${settings}`,
    ]);
    expect(request(['out', '--settings', settings, 'a.wav', 'b.wav']).options).toMatchObject({
      style: 'METAL',
      sampleRate: 48000,
    });
  });

  it('accepts a bare array of entries and an object keyed by file name', async () => {
    const array = await settingsFile('array.json', [{ fileName: 'drums.wav', panPreference: 'RIGHT' }]);
    expect(request(['out', '--settings', array, 'drums.wav', 'Lead Vox.wav']).inputs[0]!.settings).toEqual({
      panPreference: 'RIGHT',
    });
    const keyed = await settingsFile('keyed.json', { 'Lead Vox.wav': { presenceSetting: 'BACKGROUND' } });
    expect(request(['out', '--settings', keyed, 'drums.wav', 'Lead Vox.wav']).inputs[1]!.settings).toEqual({
      presenceSetting: 'BACKGROUND',
    });
  });

  const usage: Array<[string, unknown, string]> = [
    ['an entry without a file name', { tracks: [{ instrumentGroup: 'bass' }] }, 'tracks[0] has no fileName'],
    ['an array entry without a file name', [{ presenceSetting: 'LEAD' }], '[0] has no fileName'],
    [
      'an entry naming a file that is not an input',
      { tracks: [{ fileName: 'Lead Vox.wav' }, { fileName: 'guitar.wav', panPreference: 'LEFT' }] },
      'tracks[1] ("guitar.wav"): fileName names none of the input files (Lead Vox.wav, drums.wav)',
    ],
    [
      'two entries for one file',
      [{ fileName: 'drums.wav' }, { fileName: 'drums' }],
      '[1] ("drums"): drums.wav already has its settings in [0] ("drums.wav")',
    ],
    [
      'an unknown instrument group',
      { musicalStyle: 'POP', tracks: [{ fileName: 'drums.wav', instrumentGroup: 'tuba' }] },
      'tracks[0] ("drums.wav"): instrumentGroup "tuba" is not one of bass, drums',
    ],
    [
      'an unknown pan',
      [{ fileName: 'drums.wav', panPreference: 'UP' }],
      '[0] ("drums.wav"): panPreference "UP" is not one of NO_PREFERENCE, LEFT, CENTRE, RIGHT',
    ],
    ['an unknown style', { musicalStyle: 'JAZZ', tracks: [] }, 'musicalStyle "JAZZ" is not one of ROCK_INDIE, POP'],
    ['an unknown rate', { sampleRate: 96000, tracks: [] }, 'sampleRate 96000 is not one of 44100, 48000'],
    [
      'an unknown key in an entry',
      { tracks: [{ fileName: 'drums.wav', presence: 'LEAD' }] },
      'tracks[0] ("drums.wav"): unknown key "presence" (expected fileName, instrumentGroup, presenceSetting',
    ],
    [
      'an unknown key in the batch',
      { musicalStyle: 'POP', track: [] },
      'unknown key "track" (the batch takes musicalStyle, sampleRate, tracks)',
    ],
    [
      'a keyed object naming no input',
      { 'Lead Vox.wav': {}, 'vox.wav': { reverbPreference: 'LOW' } },
      '"vox.wav": fileName names none of the input files',
    ],
    ['tracks that are not an array', { tracks: { 'drums.wav': {} } }, 'tracks must be an array of entries'],
  ];
  it.each(usage)('refuses %s: usage error (exit 2) naming the entry and the field', async (_, json, message) => {
    const settings = await settingsFile('bad.json', json);
    const r = cli([file('cli-bad'), '--settings', settings, file('Lead Vox.wav'), file('drums.wav')]);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain(`--settings ${settings}: ${message}`);
    expect(r.stdout).toBe('');
    expect(existsSync(file('cli-bad'))).toBe(false);
    expect(() => request(['out', '--settings', settings, 'Lead Vox.wav', 'drums.wav'])).toThrow(UsageError);
  });

  it('refuses a batch without files when none follow <outdir>, and a settings file that is not JSON', async () => {
    const empty = await settingsFile('empty.json', { musicalStyle: 'POP', tracks: [] });
    const r = cli([file('cli-bad'), '--settings', empty]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('mix needs 2 to 5 WAV files');
    await writeFile(file('broken.json'), '{ "tracks": [');
    const broken = cli([file('cli-bad'), '--settings', file('broken.json'), file('drums.wav'), file('Lead Vox.wav')]);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain(`cannot read --settings ${file('broken.json')}`);
  });
});
