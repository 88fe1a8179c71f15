/**
 * `npm run eval:engine -- --only reference`: reference mastering on (target, reference) pairs rendered by the eval's
 * song renderer (fluidsynth, GM) with different seeds and tonal shapes, including a loud limited reference, a mono
 * target, a 48 kHz target and a quiet dynamic piece. Per pair: the master's loudness against the reference's (ffmpeg
 * ebur128, mono as dual mono), true peak, spectral distance to the reference before and after (1/3-octave, 40 Hz-
 * 16 kHz, curves relative to integrated loudness, measured on the written files), LRA and crest factor errors, time.
 * Then the time to master a 4-minute song against a reference next to ffmpeg's two-pass loudnorm on the same file.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { analyzePcm } from '../src/analysis/analyze';
import { measureLoudness } from '../src/analysis/loudness';
import { type Biquad, filterInPlace, highShelf, lowShelf } from '../src/dsp/biquad';
import { decodeAudio } from '../src/io/decode';
import { toolPath } from '../src/io/tools';
import { writeWav } from '../src/io/wav';
import { runJobInline } from '../src/job/run-inline';
import { curveOf, spectralDistanceDb } from '../src/master/match';
import { normalizeLoudness } from '../src/master/normalize';
import type { MasterResult } from '../src/master/report';
import type { Pcm } from '../src/pcm';
import { renderSong } from './material';
import { cpuSeconds, ffmpegLoudness } from './metrics';

const run = promisify(execFile);

export interface ReferenceRow {
  pair: string;
  referenceLufs: number;
  masterLufs: number;
  loudnessErrorLu: number;
  truePeakDbtp: number;
  distanceBeforeDb: number;
  distanceAfterDb: number;
  engineDistanceAfterDb: number;
  lraReference: number;
  lraMaster: number;
  lraErrorLu: number;
  crestErrorDb: number;
  seconds: number;
}

function scaledTo(pcm: Pcm, lufs: number): Pcm {
  const now = measureLoudness(pcm.channels, pcm.sampleRate).integratedLufs;
  const g = Math.pow(10, (lufs - now) / 20);
  return { sampleRate: pcm.sampleRate, channels: pcm.channels.map((c) => c.map((v) => v * g)) };
}

async function shaped(pcm: Pcm, filters: (fs: number) => Biquad[]): Promise<Pcm> {
  const out = { sampleRate: pcm.sampleRate, channels: pcm.channels.map((c) => c.slice()) };
  await filterInPlace(out, filters(pcm.sampleRate));
  return out;
}

const curveOfFile = async (file: string) => {
  const { pcm } = await decodeAudio(file);
  const a = await analyzePcm(pcm);
  return { analysis: a, curve: curveOf(a.spectrum, a.integratedLufs, pcm.sampleRate) };
};

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : String(v));

export async function evaluateReference(
  dir: string,
  log: (m: string) => void,
): Promise<{ lines: string[]; rows: ReferenceRow[]; timing: Record<string, number> }> {
  log('eval reference: rendering songs with fluidsynth');
  const song = async (seed: number, bars = 24, sampleRate?: number) =>
    (await decodeAudio(await renderSong(dir, `ref-song-${seed}`, bars, seed), sampleRate ? { sampleRate } : {})).pcm;
  const limited = async (pcm: Pcm, lufs: number) => {
    const p = { sampleRate: pcm.sampleRate, channels: pcm.channels.map((c) => c.slice()) };
    await normalizeLoudness(p, lufs, { ceilingDb: -0.3, lookahead: 0.003, hold: 0.006, release: 0.05 }, async () => {});
    return p;
  };
  const pairs: Array<{ name: string; target: Pcm; reference: Pcm }> = [];
  pairs.push({
    name: 'dark target, bright reference',
    target: scaledTo(await shaped(await song(1), (fs) => [highShelf(3000, fs, -6)]), -18),
    reference: scaledTo(await shaped(await song(7), (fs) => [highShelf(5000, fs, 5)]), -11),
  });
  pairs.push({
    name: 'loud limited reference (-8 LUFS, bass-heavy)',
    target: scaledTo(await song(2), -20),
    reference: await limited(await shaped(await song(5), (fs) => [lowShelf(100, fs, 6)]), -8),
  });
  const monoSource = await shaped(await song(3), (fs) => [lowShelf(200, fs, -4), highShelf(6000, fs, 3)]);
  pairs.push({
    name: 'mono target',
    target: scaledTo(
      { sampleRate: 44100, channels: [monoSource.channels[0]!.map((v, i) => (v + monoSource.channels[1]![i]!) / 2)] },
      -20,
    ),
    reference: scaledTo(await song(7), -12),
  });
  pairs.push({
    name: '48 kHz target',
    target: scaledTo(await shaped(await song(4, 24, 48000), (fs) => [lowShelf(150, fs, -5)]), -16),
    reference: scaledTo(await song(1), -14),
  });
  const quiet = scaledTo(await song(6), -30);
  const opening = Math.floor(quiet.channels[0]!.length * 0.4);
  for (const ch of quiet.channels) for (let i = 0; i < opening; i++) ch[i]! *= 0.1; // -20 dB opening
  const dynRef = scaledTo(await song(2), -16);
  const refOpening = Math.floor(dynRef.channels[0]!.length * 0.3);
  for (const ch of dynRef.channels) for (let i = 0; i < refOpening; i++) ch[i]! *= 0.2; // -14 dB opening
  pairs.push({ name: 'quiet dynamic piece (-30 LUFS)', target: quiet, reference: dynRef });
  pairs.push({
    name: 'bass-heavy target, lean reference',
    target: scaledTo(await shaped(await song(8), (fs) => [lowShelf(120, fs, 8)]), -14),
    reference: scaledTo(await shaped(await song(5), (fs) => [lowShelf(120, fs, -4), highShelf(8000, fs, 2)]), -11),
  });
  pairs.push({
    name: 'mid-scooped target, flat reference',
    target: scaledTo(await shaped(await song(9), (fs) => [lowShelf(300, fs, 4), highShelf(2500, fs, 4)]), -15),
    reference: scaledTo(await song(3), -10),
  });

  const rows: ReferenceRow[] = [];
  for (const [k, p] of pairs.entries()) {
    const targetFile = join(dir, `ref-pair-${k}-target.wav`);
    const referenceFile = join(dir, `ref-pair-${k}-reference.wav`);
    await writeWav(targetFile, p.target, { encoding: 'pcm24', dither: false });
    await writeWav(referenceFile, p.reference, { encoding: 'float32' });
    log(`eval reference: ${p.name}`);
    const t0 = performance.now();
    const result = (await runJobInline({
      kind: 'master',
      input: targetFile,
      outDir: join(dir, `ref-master-${k}`),
      options: { reference: referenceFile },
    })) as MasterResult;
    const seconds = (performance.now() - t0) / 1000;
    const refM = await ffmpegLoudness(referenceFile);
    const outM = await ffmpegLoudness(result.outputs.master44);
    const ref = await curveOfFile(referenceFile);
    const tgt = await curveOfFile(targetFile);
    const out = await curveOfFile(result.outputs.master44);
    rows.push({
      pair: p.name,
      referenceLufs: refM.integratedLufs,
      masterLufs: outM.integratedLufs,
      loudnessErrorLu: outM.integratedLufs - refM.integratedLufs,
      truePeakDbtp: outM.truePeakDbtp,
      distanceBeforeDb: spectralDistanceDb(tgt.curve, ref.curve),
      distanceAfterDb: spectralDistanceDb(out.curve, ref.curve),
      engineDistanceAfterDb: result.report.referenceMatch?.distanceAfterDb ?? NaN,
      lraReference: refM.lraLu,
      lraMaster: outM.lraLu,
      lraErrorLu: outM.lraLu - refM.lraLu,
      crestErrorDb: out.analysis.crestFactorDb - ref.analysis.crestFactorDb,
      seconds,
    });
  }

  // Time: a 4-minute song against a reference, and ffmpeg's two-pass loudnorm on the same file.
  log('eval reference: 4-minute song');
  const long = join(dir, 'ref-long.wav');
  await writeWav(long, (await decodeAudio(await renderSong(dir, 'ref-long-src', 112, 3))).pcm, { encoding: 'pcm24' });
  const longRef = join(dir, 'ref-pair-1-reference.wav');
  const timing: Record<string, number> = {};
  const engineTimes: number[] = [];
  const styleTimes: number[] = [];
  const loudnormTimes: number[] = [];
  // CPU seconds of the same runs (this process and its finished ffmpeg children): wall time on a shared machine also
  // counts the time other processes held the cores.
  const cpu: Record<'engine' | 'style' | 'loudnorm', number[]> = { engine: [], style: [], loudnorm: [] };
  const cpuSince = (c0: number | null, into: number[]) => {
    const c1 = cpuSeconds();
    if (c0 !== null && c1 !== null) into.push(c1 - c0);
  };
  for (let r = 0; r < 3; r++) {
    const t2 = performance.now();
    const c2 = cpuSeconds();
    await runJobInline({ kind: 'master', input: long, outDir: join(dir, `ref-long-style-${r}`), options: {} });
    styleTimes.push((performance.now() - t2) / 1000);
    cpuSince(c2, cpu.style);
    const t0 = performance.now();
    const c0 = cpuSeconds();
    await runJobInline({
      kind: 'master',
      input: long,
      outDir: join(dir, `ref-long-${r}`),
      options: { reference: longRef },
    });
    engineTimes.push((performance.now() - t0) / 1000);
    cpuSince(c0, cpu.engine);
    const t1 = performance.now();
    const c1 = cpuSeconds();
    const ffmpeg = toolPath('ffmpeg');
    const first = await run(
      ffmpeg,
      [
        '-hide_banner',
        '-nostats',
        '-i',
        long,
        '-af',
        'loudnorm=I=-14:TP=-1:LRA=11:print_format=json',
        '-f',
        'null',
        '-',
      ],
      { maxBuffer: 64 << 20 },
    );
    const json = /\{[\s\S]*\}/.exec(first.stderr.slice(first.stderr.lastIndexOf('[Parsed_loudnorm')))?.[0] ?? '{}';
    const m = JSON.parse(json) as Record<string, string>;
    const measured = `measured_I=${m.input_i}:measured_TP=${m.input_tp}:measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}`;
    await run(
      ffmpeg,
      [
        '-hide_banner',
        '-nostats',
        '-y',
        '-i',
        long,
        '-af',
        `loudnorm=I=-14:TP=-1:LRA=11:${measured}:linear=true`,
        '-ar',
        '44100',
        join(dir, `ref-loudnorm-${r}.wav`),
      ],
      { maxBuffer: 64 << 20 },
    );
    loudnormTimes.push((performance.now() - t1) / 1000);
    cpuSince(c1, cpu.loudnorm);
  }
  timing.engineSeconds = median(engineTimes);
  timing.loudnormSeconds = median(loudnormTimes);
  timing.ratio = timing.engineSeconds / timing.loudnormSeconds;
  timing.styleSeconds = median(styleTimes);
  timing.styleRatio = timing.styleSeconds / timing.loudnormSeconds;
  if (cpu.engine.length === 3 && cpu.style.length === 3 && cpu.loudnorm.length === 3) {
    timing.engineCpuSeconds = median(cpu.engine);
    timing.styleCpuSeconds = median(cpu.style);
    timing.loudnormCpuSeconds = median(cpu.loudnorm);
    timing.cpuRatio = timing.engineCpuSeconds / timing.loudnormCpuSeconds;
  }
  const cpuLine =
    timing.cpuRatio === undefined
      ? 'CPU time not available here (/proc/self/stat).'
      : `CPU time (this process and its ffmpeg children, medians): engine ${timing.engineCpuSeconds!.toFixed(2)} s (${cpu.engine.map((t) => t.toFixed(2)).join(', ')}), loudnorm ${timing.loudnormCpuSeconds!.toFixed(2)} s (${cpu.loudnorm.map((t) => t.toFixed(2)).join(', ')}), ratio ${timing.cpuRatio.toFixed(2)}; style path ${timing.styleCpuSeconds!.toFixed(2)} s (${cpu.style.map((t) => t.toFixed(2)).join(', ')}), ratio ${(timing.styleCpuSeconds! / timing.loudnormCpuSeconds!).toFixed(2)}.`;

  const lines = [
    '### Reference mastering (loudness, true peak and LRA by ffmpeg ebur128, mono as dual mono; distances on the written files)',
    '',
    '| pair | reference LUFS | master LUFS | loudness error LU | true peak dBTP | distance before dB | distance after dB | LRA ref / master LU | LRA error LU | crest error dB | time s |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.pair} | ${r2(r.referenceLufs)} | ${r2(r.masterLufs)} | ${r2(r.loudnessErrorLu)} | ${r2(r.truePeakDbtp)} | ${r2(r.distanceBeforeDb)} | ${r2(r.distanceAfterDb)} | ${r2(r.lraReference)} / ${r2(r.lraMaster)} | ${r2(r.lraErrorLu)} | ${r2(r.crestErrorDb)} | ${r.seconds.toFixed(1)} |`,
    ),
    `| **median** | | | ${r2(median(rows.map((r) => Math.abs(r.loudnessErrorLu))))} (abs) | worst ${r2(Math.max(...rows.map((r) => r.truePeakDbtp)))} | ${r2(median(rows.map((r) => r.distanceBeforeDb)))} | ${r2(median(rows.map((r) => r.distanceAfterDb)))} | | ${r2(median(rows.map((r) => Math.abs(r.lraErrorLu))))} (abs) | ${r2(median(rows.map((r) => Math.abs(r.crestErrorDb))))} (abs) | |`,
    '',
    `4-minute song (112 bars, 244 s) against the loud reference: engine ${timing.engineSeconds.toFixed(2)} s (runs ${engineTimes.map((t) => t.toFixed(2)).join(', ')}), ffmpeg two-pass loudnorm ${timing.loudnormSeconds.toFixed(2)} s (${loudnormTimes.map((t) => t.toFixed(2)).join(', ')}), ratio ${timing.ratio.toFixed(2)} (target at most 0.7); for comparison the same song mastered without a reference (style path) ${timing.styleSeconds.toFixed(2)} s (${styleTimes.map((t) => t.toFixed(2)).join(', ')}), ratio ${timing.styleRatio.toFixed(2)}. Jobs run inline in the eval's process, ffmpeg as a child, alternated, not pinned.`,
    '',
    cpuLine,
    '',
    '| target | measured | met |',
    '|---|---|---|',
    `| loudness within 0.5 LU of the reference on every pair | worst ${r2(Math.max(...rows.map((r) => Math.abs(r.loudnessErrorLu))))} LU | ${rows.every((r) => Math.abs(r.loudnessErrorLu) <= 0.5) ? 'yes' : 'NO'} |`,
    `| true peak at most -1 dBTP | worst ${r2(Math.max(...rows.map((r) => r.truePeakDbtp)))} dBTP | ${rows.every((r) => r.truePeakDbtp <= -1) ? 'yes' : 'NO'} |`,
    `| never further from the reference than the input | ${rows.filter((r) => r.distanceAfterDb <= r.distanceBeforeDb).length} of ${rows.length} closer | ${rows.every((r) => r.distanceAfterDb <= r.distanceBeforeDb) ? 'yes' : 'NO'} |`,
    `| 4-minute master at most 0.7x two-pass loudnorm | ${timing.ratio.toFixed(2)} wall${timing.cpuRatio === undefined ? '' : `, ${timing.cpuRatio.toFixed(2)} CPU`} | ${timing.ratio <= 0.7 ? 'yes' : 'NO'} (wall)${timing.cpuRatio === undefined ? '' : `, ${timing.cpuRatio <= 0.7 ? 'yes' : 'NO'} (CPU)`} |`,
  ];
  return { lines, rows, timing };
}
