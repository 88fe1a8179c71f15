/**
 * `node scripts/build-server.mjs --quiet && node modules/audio-engine/dist/eval/fingerprint.js --dir <dir>`
 *
 * Fingerprints of the engine's outputs, to prove a refactoring changes nothing: runs mastering (every intensity, every
 * loudness preset and a number, several styles, a reference, the evaluation's difficult inputs), enhancement (every
 * preset, video included), stem separation (every mode) and mixing (two styles) on a fixed subset of the evaluation's
 * material, and prints one line per output file: `<sha-256>  <job>/<file>`. Reports are hashed without their
 * `timings` (wall-clock times, different on every run); every other field, every decision included, is hashed.
 *
 * The material (fluidsynth, espeak-ng, sox, as `npm run eval:engine` builds it, shortened) is written once under
 * `<dir>/material` and reused, so two builds are compared on the very same input files. Compare two runs with `diff`.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { decodeAudio } from '../src/io/decode';
import { toolPath } from '../src/io/tools';
import { writeWav } from '../src/io/wav';
import { runJobInline } from '../src/job/run-inline';
import type { Pcm } from '../src/pcm';
import type { EnhancePreset, JobRequest, MasterOptions, MusicalStyle, StemMode } from '../src/types';
import { renderSong, soxNoise, speechCorpus } from './material';
import { EVAL_SONGS, type SongSpec, renderMultitrack } from './multitrack';
import { mixInputs } from './stems-mix';

const run = promisify(execFile);
const log = (message: string) => process.stderr.write(`${message}\n`);

/** A rock song (it has guitars, so every stem mode applies), shortened to 16 bars (about 33 s). */
const SONG: SongSpec = { ...EVAL_SONGS.find((s) => s.style === 'rock')!, name: 'fingerprint-rock', bars: 16 };

interface Material {
  song: string;
  song48: string;
  mono: string;
  quiet: string;
  loud: string;
  reference: string;
  speech: string;
  speechStereo: string;
  hum: string;
  video: string;
  mixture: string;
  mix: Array<{ path: string; name: string; settings: object }>;
}

function scaled(pcm: Pcm, gain: number, clip = false): Pcm {
  return {
    sampleRate: pcm.sampleRate,
    channels: pcm.channels.map((c) => c.map((v) => (clip ? Math.max(-1, Math.min(1, v * gain)) : v * gain))),
  };
}

async function buildMaterial(dir: string): Promise<Material> {
  const index = join(dir, 'material.json');
  if (existsSync(index)) return JSON.parse(await readFile(index, 'utf8')) as Material;
  await mkdir(dir, { recursive: true });
  const wav = (name: string) => join(dir, `${name}.wav`);
  log('fingerprint: building the material (fluidsynth, espeak-ng, sox)');
  const songFile = await renderSong(dir, 'song', 16, 1);
  const song = (await decodeAudio(songFile)).pcm;
  const song48 = (await decodeAudio(songFile, { sampleRate: 48000 })).pcm;
  await writeWav(wav('song-48k'), song48, { encoding: 'pcm24', dither: false });
  const mono = { sampleRate: 44100, channels: [song.channels[0]!.map((v, i) => (v + song.channels[1]![i]!) / 2)] };
  await writeWav(wav('song-mono'), mono, { encoding: 'pcm24', dither: false });
  await writeWav(wav('song-quiet'), scaled(song, 0.03), { encoding: 'pcm24', dither: false });
  await writeWav(wav('song-loud'), scaled(song, 6, true), { encoding: 'pcm24', dither: false });
  const reference = (await decodeAudio(await renderSong(dir, 'reference-song', 8, 7))).pcm;
  await writeWav(wav('reference'), scaled(reference, 1.5), { encoding: 'pcm24', dither: false });

  const clean = (await speechCorpus(dir)).channels[0]!.subarray(0, 48000 * 15);
  const noise = await soxNoise(dir, 'pink', 16);
  const noisy = clean.map((v, i) => v + 0.05 * noise[i]!);
  await writeWav(wav('speech'), { sampleRate: 48000, channels: [noisy] }, { encoding: 'float32' });
  const other = clean.map((v, i) => 0.7 * v + 0.03 * noise[(i + 4800) % noise.length]!);
  await writeWav(wav('speech-stereo'), { sampleRate: 48000, channels: [noisy, other] }, { encoding: 'float32' });
  const hum = noisy.map((v, i) => {
    let h = 0;
    for (let k = 1; k <= 8; k++) h += Math.sin((2 * Math.PI * 50 * k * i) / 48000 + k) / k;
    return v + 0.02 * h;
  });
  await writeWav(wav('speech-hum'), { sampleRate: 48000, channels: [hum] }, { encoding: 'float32' });
  const video = join(dir, 'speech.mp4');
  await run(toolPath('ffmpeg'), [
    ...['-y', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=gray:s=160x120:r=10:d=15', '-i', wav('speech')],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-shortest', video],
  ]);

  const multitrack = await renderMultitrack(dir, SONG);
  await writeWav(wav('mixture'), multitrack.mixture, { encoding: 'float32' });
  const mix = await mixInputs(dir, SONG, multitrack);
  const material: Material = {
    song: songFile,
    song48: wav('song-48k'),
    mono: wav('song-mono'),
    quiet: wav('song-quiet'),
    loud: wav('song-loud'),
    reference: wav('reference'),
    speech: wav('speech'),
    speechStereo: wav('speech-stereo'),
    hum: wav('speech-hum'),
    video,
    mixture: wav('mixture'),
    mix,
  };
  await writeFile(index, JSON.stringify(material, null, 2));
  return material;
}

/** Every job of the fingerprint, by name. */
function jobs(m: Material, out: string): Array<[string, JobRequest]> {
  const list: Array<[string, JobRequest]> = [];
  const master = (name: string, input: string, options: MasterOptions) =>
    list.push([`master-${name}`, { kind: 'master', input, outDir: join(out, `master-${name}`), options }]);
  master('default', m.song, {});
  for (const intensity of ['low', 'medium', 'high'] as const) master(`intensity-${intensity}`, m.song, { intensity });
  for (const target of ['streaming', 'apple', 'podcast', 'club', -10] as const)
    master(`target-${target}`, m.song, { target });
  for (const style of ['ACOUSTIC', 'HIPHOP_GRIME', 'ORCHESTRAL', 'METAL'] as const)
    master(`style-${style}`, m.song, { style });
  master('reference', m.song, { reference: m.reference });
  master('reference-target', m.song, { reference: m.reference, target: 'club', intensity: 'high' });
  master('48k', m.song48, {});
  master('mono', m.mono, { style: 'POP' });
  master('quiet', m.quiet, {});
  master('loud-clipped', m.loud, { intensity: 'low' });
  master('seed', m.song, { seed: 7 });

  const enhance = (name: string, input: string, preset: EnhancePreset, target?: number) =>
    list.push([
      `enhance-${name}`,
      { kind: 'enhance', input, outDir: join(out, `enhance-${name}`), options: { preset, target } },
    ]);
  enhance('voice', m.speech, 'voice');
  enhance('voice-hum', m.hum, 'voice');
  enhance('podcast', m.speechStereo, 'podcast');
  enhance('music', m.song, 'music');
  enhance('music-target', m.song48, 'music', -18);
  enhance('audio-speech', m.speech, 'audio');
  enhance('audio-music', m.song, 'audio');
  enhance('video', m.video, 'video');

  for (const mode of ['vocals', 'drums', 'guitars', 'full'] as StemMode[]) {
    list.push([
      `stems-${mode}`,
      { kind: 'stems', input: m.mixture, outDir: join(out, `stems-${mode}`), options: { mode } },
    ]);
  }
  const mix = (name: string, style: MusicalStyle, sampleRate: 44100 | 48000, target?: 'club') =>
    list.push([
      `mix-${name}`,
      { kind: 'mix', inputs: m.mix as never, outDir: join(out, `mix-${name}`), options: { style, sampleRate, target } },
    ]);
  mix('rock', 'ROCK_INDIE', 44100);
  mix('orchestral-48k-club', 'ORCHESTRAL', 48000, 'club');
  return list;
}

/** The report without its wall-clock timings, anywhere in it. */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'timings')
        .map(([k, v]) => [k, withoutTimings(v)]),
    );
  }
  return value;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out.sort();
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = resolve(base, arg('dir') ?? join(tmpdir(), 'kora-engine-fingerprint'));
  const only = arg('only')?.split(',');
  const material = await buildMaterial(join(dir, 'material'));
  const out = join(dir, 'out');
  for (const [name, request] of jobs(material, out)) {
    if (only && !only.some((o) => name.startsWith(o))) continue;
    const jobDir = join(out, name);
    await rm(jobDir, { recursive: true, force: true });
    const t0 = performance.now();
    await runJobInline(request);
    log(`fingerprint: ${name} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const file of await filesUnder(jobDir)) {
      let bytes = await readFile(file);
      if (file.endsWith('.json'))
        bytes = Buffer.from(JSON.stringify(withoutTimings(JSON.parse(bytes.toString('utf8')))));
      process.stdout.write(`${createHash('sha256').update(bytes).digest('hex')}  ${relative(out, file)}\n`);
    }
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `fingerprint failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
