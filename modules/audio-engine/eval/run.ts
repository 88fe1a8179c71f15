/**
 * `npm run eval:engine [-- --out <dir>] [-- --quick] [-- --only master,enhance,stems,mix]`; `-- --only reference`
 * runs the reference-mastering pairs alone (reference.ts)
 *
 * Builds its own material (fluidsynth + GM sound font, espeak-ng, sox), runs the mastering and enhancement chains
 * and prints Markdown tables: per file the loudness reached and its error and the true peak (both measured by ffmpeg's
 * ebur128 filter, an independent meter), and for enhancement the SI-SDR of the output against the clean speech
 * before and after, the hum reduction and the real-time factor; for stems, SDR per stem against the true parts of
 * multitrack songs (with the floor and the oracle ceiling); for mixing, each track's loudness and balance in the mix
 * and the mix's loudness and true peak (stems-mix.ts). Targets are checked at the end. Logs go to stderr,
 * the tables to stdout, everything also to <dir>/results.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { measureLoudness } from '../src/analysis/loudness';
import { filterInPlace, filtfiltInPlace, highShelf, highpass } from '../src/dsp/biquad';
import { humNotches } from '../src/enhance/hum';
import { spectralDenoise } from '../src/enhance/denoise';
import { speechLoudness } from '../src/enhance/peaks';
import { rnnoiseChannel } from '../src/enhance/rnnoise';
import { analyzePcm } from '../src/analysis/analyze';
import { LIMITER_CEILING_DB } from '../src/master/master';
import { normalizeLoudness } from '../src/master/normalize';
import { decodeAudio } from '../src/io/decode';
import { writeWav } from '../src/io/wav';
import { runJobInline } from '../src/job/run-inline';
import type { Pcm } from '../src/pcm';
import type { EnhanceResult } from '../src/enhance/report';
import type { MasterResult } from '../src/master/report';
import type { MasterOptions } from '../src/types';
import { renderSong, soxNoise, speechCorpus } from './material';
import { cpuSeconds, ffmpegLoudness, projectionScale, siSdr, sinusoidPower } from './metrics';
import { evaluateMixing, evaluateSeparation, mixingTargets, separationTargets, substemTargets } from './stems-mix';
import { evaluateReference } from './reference';

const log = (message: string) => process.stderr.write(`${message}\n`);

const round = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : String(v));

function scaledTo(pcm: Pcm, lufs: number): Pcm {
  const now = measureLoudness(pcm.channels, pcm.sampleRate).integratedLufs;
  const g = Math.pow(10, (lufs - now) / 20);
  return { sampleRate: pcm.sampleRate, channels: pcm.channels.map((c) => c.map((v) => v * g)) };
}

function rms(x: Float32Array): number {
  let e = 0;
  for (const v of x) e += v * v;
  return Math.sqrt(e / x.length);
}

interface MasterRow {
  case: string;
  options: string;
  inputLufs: number;
  targetLufs: number;
  lufs44: number;
  lufs48: number;
  errorLu: number;
  tp44: number;
  tp48: number;
  limiterMaxGrDb: number;
  seconds: number;
  pass: boolean;
}

interface EnhanceRow {
  case: string;
  siSdrIn: number;
  siSdrOut: number;
  improvement: number;
  humReductionDb: number | null;
  lufs: number;
  tp: number;
  rtf: number;
  cpuRtf: number | null;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const outArg = argv.indexOf('--out');
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = resolve(base, outArg >= 0 && argv[outArg + 1] ? argv[outArg + 1]! : join(tmpdir(), 'kora-engine-eval'));
  const quick = argv.includes('--quick');
  const onlyArg = argv.indexOf('--only');
  const only = new Set(
    onlyArg >= 0 && argv[onlyArg + 1] ? argv[onlyArg + 1]!.split(',') : ['master', 'enhance', 'stems', 'mix'],
  );
  await mkdir(dir, { recursive: true });
  log(`eval: material and outputs in ${dir}`);
  if (only.has('reference')) {
    // Reference mastering runs alone (`--only reference`): pairs of its own, and a 4-minute timing against loudnorm.
    const r = await evaluateReference(dir, log);
    await writeFile(join(dir, 'results-reference.json'), JSON.stringify({ rows: r.rows, timing: r.timing }, null, 2));
    process.stdout.write(`${r.lines.join('\n')}\n`);
    return 0;
  }
  if (!only.has('master') && !only.has('enhance')) {
    const out: string[] = [];
    const targets: string[] = [];
    if (only.has('stems')) {
      const s = await evaluateSeparation(dir, quick, log);
      out.push(...s.lines, '');
      targets.push(...separationTargets(s.rows, s.runs), ...substemTargets(s.substems));
      await writeFile(
        join(dir, 'results-stems.json'),
        JSON.stringify({ rows: s.rows, runs: s.runs, substems: s.substems }, null, 2),
      );
    }
    if (only.has('mix')) {
      const m = await evaluateMixing(dir, quick, log);
      out.push(...m.lines, '');
      targets.push(...mixingTargets(m.songs));
      await writeFile(join(dir, 'results-mix.json'), JSON.stringify({ rows: m.rows, songs: m.songs }, null, 2));
    }
    out.push('### Targets (stems and mixing)', '', '| target | measured | met |', '|---|---|---|', ...targets);
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  }

  // ---------- Mastering (skipped unless asked for: `--only enhance` runs the enhancement part alone) ----------
  const masterRows: MasterRow[] = [];
  let songSeconds = 0;
  if (only.has('master')) {
    log('eval: rendering music with fluidsynth');
    const songFile = await renderSong(dir, 'song', quick ? 24 : 48, 1);
    const song = (await decodeAudio(songFile)).pcm;
    const refSong = (await decodeAudio(await renderSong(dir, 'reference-song', 24, 7))).pcm;
    await filterInPlace(refSong, [highShelf(5000, 44100, 5)]);
    const inputs: Array<[string, Pcm]> = [];
    inputs.push(['normal', song]);
    inputs.push(['quiet (-38 LUFS)', scaledTo(song, -38)]);
    const loud = scaledTo(song, -5);
    for (const ch of loud.channels) for (let i = 0; i < ch.length; i++) ch[i] = Math.max(-1, Math.min(1, ch[i]!));
    inputs.push(['very loud, clipped', loud]);
    const dynamic = scaledTo(song, -16);
    const quietPart = Math.floor(dynamic.channels[0]!.length * 0.4);
    for (const ch of dynamic.channels) for (let i = 0; i < quietPart; i++) ch[i]! *= 0.04; // -28 dB opening
    inputs.push(['very dynamic (28 dB)', dynamic]);
    inputs.push([
      'mono',
      { sampleRate: 44100, channels: [song.channels[0]!.map((v, i) => (v + song.channels[1]![i]!) / 2)] },
    ]);
    const song48 = (await decodeAudio(songFile, { sampleRate: 48000 })).pcm;
    inputs.push(['48 kHz', song48]);
    const files = new Map<string, string>();
    for (const [name, pcm] of inputs) {
      const path = join(dir, `in-${name.replace(/[^a-z0-9]+/gi, '-')}.wav`);
      await writeWav(path, pcm, { encoding: 'pcm24', dither: false });
      files.set(name, path);
    }
    const referencePath = join(dir, 'reference.wav');
    await writeWav(referencePath, scaledTo(refSong, -10), { encoding: 'pcm24', dither: false });

    const masterCases: Array<[string, MasterOptions]> = [...files.keys()].map((name) => [name, {}]);
    masterCases.push(['normal', { target: 'club' }]);
    masterCases.push(['normal', { target: 'apple', style: 'ACOUSTIC', intensity: 'low' }]);
    masterCases.push(['normal', { style: 'HIPHOP_GRIME', intensity: 'high' }]);
    masterCases.push(['normal', { style: 'ORCHESTRAL' }]);
    masterCases.push(['normal', { reference: referencePath }]);
    songSeconds = song.channels[0]!.length / 44100;
    for (const [name, options] of masterCases) {
      const input = files.get(name)!;
      const label = Object.entries(options)
        .map(([k, v]) => `${k}=${k === 'reference' ? 'bright -10 LUFS track' : String(v)}`)
        .join(' ');
      log(`eval: master ${name} ${label}`);
      const outDir = join(dir, `master-${masterRows.length}`);
      const t0 = performance.now();
      const result = (await runJobInline({ kind: 'master', input, outDir, options })) as MasterResult;
      const seconds = (performance.now() - t0) / 1000;
      const a = await ffmpegLoudness(result.outputs.master44);
      const b = await ffmpegLoudness(result.outputs.master48);
      const target = result.report.settings.targetLufs;
      const errorLu = Math.max(Math.abs(a.integratedLufs - target), Math.abs(b.integratedLufs - target));
      masterRows.push({
        case: name,
        options: label || 'default (streaming -14)',
        inputLufs: result.report.before.integratedLufs,
        targetLufs: Math.round(target * 100) / 100,
        lufs44: a.integratedLufs,
        lufs48: b.integratedLufs,
        errorLu,
        tp44: a.truePeakDbtp,
        tp48: b.truePeakDbtp,
        limiterMaxGrDb: result.report.decisions.limiter.maxReductionDb,
        seconds,
        pass: errorLu <= 0.5 && Math.max(a.truePeakDbtp, b.truePeakDbtp) <= -1.0,
      });
    }
  }

  // ---------- Enhancement ----------
  log('eval: speech with espeak-ng, noise with sox');
  const clean = (await speechCorpus(dir)).channels[0]!;
  const seconds = clean.length / 48000;
  await writeWav(join(dir, 'speech-clean.wav'), { sampleRate: 48000, channels: [clean] }, { encoding: 'float32' });
  const enhanceRows: EnhanceRow[] = [];
  const enhance = async (name: string, noisy: Float32Array, hum: number[] | null) => {
    const input = join(dir, `noisy-${name.replace(/[^a-z0-9]+/gi, '-')}.wav`);
    await writeWav(input, { sampleRate: 48000, channels: [noisy] }, { encoding: 'float32' });
    log(`eval: enhance voice ${name}`);
    const outDir = join(dir, `enhance-${enhanceRows.length}`);
    const cpu0 = cpuSeconds();
    const result = (await runJobInline({
      kind: 'enhance',
      input,
      outDir,
      options: { preset: 'voice' },
    })) as EnhanceResult;
    const cpu1 = cpuSeconds();
    const out = (await decodeAudio(result.outputs.enhanced)).pcm.channels[0]!;
    const m = await ffmpegLoudness(result.outputs.enhanced);
    let humReductionDb: number | null = null;
    if (hum) {
      // Hum in the input: input minus the clean speech. Hum left in the output: output minus the clean speech passed
      // through the same notches the engine used (what the notches take out of the speech itself is speech lost, not
      // hum left; the clean espeak voice has harmonics right at some hum frequencies), at the output's scale.
      const notched = { channels: [clean.slice()] };
      await filtfiltInPlace(notched, humNotches(result.report.steps.hum, 48000));
      const scale = projectionScale(out, notched.channels[0]!);
      const before = sinusoidPower(
        noisy.map((v, i) => v - clean[i]!),
        48000,
        hum,
      );
      const after =
        sinusoidPower(
          out.map((v, i) => v - scale * notched.channels[0]![i]!),
          48000,
          hum,
        ) /
        (scale * scale);
      humReductionDb = 10 * Math.log10(before / after);
    }
    const sIn = siSdr(noisy, clean);
    const sOut = siSdr(out, clean);
    enhanceRows.push({
      case: name,
      siSdrIn: sIn,
      siSdrOut: sOut,
      improvement: sOut - sIn,
      humReductionDb,
      lufs: m.integratedLufs,
      tp: m.truePeakDbtp,
      rtf: (result.timings.total ?? 0) / result.durationSec,
      cpuRtf: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / result.durationSec : null,
    });
  };
  const speechRms = rms(clean);
  for (const kind of ['white', 'pink'] as const) {
    const noise = await soxNoise(dir, kind, Math.ceil(seconds) + 1);
    const noiseRms = rms(noise.subarray(0, clean.length));
    for (const snr of [0, 5, 10]) {
      const g = speechRms / Math.pow(10, snr / 20) / noiseRms;
      await enhance(
        `${kind} noise, ${snr} dB SNR`,
        clean.map((v, i) => v + g * noise[i]!),
        null,
      );
    }
  }
  for (const f0 of [50, 60]) {
    const freqs = Array.from({ length: 8 }, (_, k) => f0 * (k + 1));
    const white = await soxNoise(dir, 'white', Math.ceil(seconds) + 1);
    const g = speechRms / Math.pow(10, 30 / 20) / rms(white.subarray(0, clean.length));
    const noisy = clean.map((v, i) => {
      let h = 0;
      for (let k = 0; k < freqs.length; k++) h += Math.sin((2 * Math.PI * freqs[k]! * i) / 48000 + k) / (k + 1);
      return v + 0.3 * speechRms * h + g * white[i]!; // hum 10 dB under the speech, light noise 30 dB under
    });
    await enhance(`${f0} Hz hum + 8 harmonics`, noisy, freqs);
  }
  // Ablation of the voice denoiser on the same six noisy inputs (after the 80 Hz zero-phase high-pass), and the
  // limiter alone on the clean speech: where the SI-SDR goes.
  log('eval: denoiser ablation');
  const ablation = {
    rnnoise: [] as number[],
    wiener: [] as number[],
    averaged: [] as number[],
    twoStep: [] as number[],
  };
  for (const kind of ['white', 'pink'] as const) {
    for (const snr of [0, 5, 10]) {
      const noisy = (await decodeAudio(join(dir, `noisy-${kind}-noise-${snr}-dB-SNR.wav`))).pcm.channels[0]!;
      const sIn = siSdr(noisy, clean);
      const hp = { sampleRate: 48000, channels: [noisy.slice()] };
      await filtfiltInPlace(hp, [highpass(80, 48000)]);
      const x = hp.channels[0]!;
      const rn = await rnnoiseChannel(x);
      const isNoise = (start: number, length: number) => {
        for (let f = Math.floor(start / 480); f <= Math.floor((start + length) / 480); f++)
          if ((rn.vad[f] ?? 0) > 0.2) return false;
        return true;
      };
      const base = { maxReductionDb: 25, alpha: 0.98, spareTransients: false, isNoise, overlap: 0.5 } as const;
      const wiener = { sampleRate: 48000, channels: [x.slice()] };
      await spectralDenoise(wiener, undefined, base);
      const guided = { sampleRate: 48000, channels: [x.slice()] };
      await spectralDenoise(guided, undefined, { ...base, guide: [rn.output] });
      ablation.rnnoise.push(siSdr(rn.output, clean) - sIn);
      ablation.wiener.push(siSdr(wiener.channels[0]!, clean) - sIn);
      ablation.averaged.push(
        siSdr(
          rn.output.map((v, i) => (v + wiener.channels[0]![i]!) / 2),
          clean,
        ) - sIn,
      );
      ablation.twoStep.push(siSdr(guided.channels[0]!, clean) - sIn);
    }
  }
  const limiterOnly: Array<[number, number]> = [];
  for (const release of [0.01, 0.02, 0.15]) {
    const p = { sampleRate: 48000, channels: [clean.slice()] };
    await normalizeLoudness(
      p,
      -16,
      { ceilingDb: LIMITER_CEILING_DB, lookahead: 0.001, hold: 0.002, release },
      async () => undefined,
    );
    limiterOnly.push([release, siSdr(p.channels[0]!, clean)]);
  }
  // The voice preset's own loudness stage (zero-phase band limit, static gain, true-peak clipper) on the clean speech.
  const clipped = { sampleRate: 48000, channels: [clean.slice()] };
  const clipStage = await speechLoudness(clipped, -16, LIMITER_CEILING_DB, async () => undefined);
  const clipperSiSdr = siSdr(clipped.channels[0]!, clean);
  const cleanPlr = (await analyzePcm({ sampleRate: 48000, channels: [clean] }, { spectrum: false })).plrDb;
  const humFloorDb = (f0: number) =>
    10 *
    Math.log10(
      sinusoidPower(
        clean,
        48000,
        Array.from({ length: 8 }, (_, k) => f0 * (k + 1)),
      ) /
        speechRms ** 2,
    );

  // ---------- Report ----------
  const out: string[] = [];
  if (only.has('master')) {
    out.push('### Mastering (loudness and true peak measured by ffmpeg ebur128 on both outputs)', '');
    out.push(
      '| input | options | input LUFS | target | 44.1/16 LUFS | 48/24 LUFS | max error LU | 44.1 dBTP | 48 dBTP | limiter max GR dB | time s | on target |',
    );
    out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of masterRows) {
      out.push(
        `| ${r.case} | ${r.options} | ${round(r.inputLufs)} | ${r.targetLufs} | ${round(r.lufs44)} | ${round(r.lufs48)} | ${round(r.errorLu)} | ${round(r.tp44)} | ${round(r.tp48)} | ${round(r.limiterMaxGrDb, 1)} | ${round(r.seconds, 1)} | ${r.pass ? 'yes' : 'NO'} |`,
      );
    }
    out.push('', `Music: ${quick ? 24 : 48} bars rendered by fluidsynth (${round(songSeconds, 1)} s).`, '');
  }
  out.push('### Enhancement, voice preset (SI-SDR against the clean espeak-ng speech)', '');
  out.push(
    '| input | SI-SDR in dB | SI-SDR out dB | improvement dB | hum reduction dB | out LUFS | out dBTP | RTF wall | RTF CPU |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const r of enhanceRows) {
    out.push(
      `| ${r.case} | ${round(r.siSdrIn)} | ${round(r.siSdrOut)} | ${round(r.improvement)} | ${r.humReductionDb === null ? '' : round(r.humReductionDb, 1)} | ${round(r.lufs)} | ${round(r.tp)} | ${round(r.rtf, 3)} | ${r.cpuRtf === null ? 'n/a' : round(r.cpuRtf, 3)} |`,
    );
  }
  const noiseRows = enhanceRows.filter((r) => r.humReductionDb === null).map((r) => r.improvement);
  const sorted = [...noiseRows].sort((a, b) => a - b);
  const median =
    sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]!
      : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const humRows = enhanceRows.filter((r) => r.humReductionDb !== null);
  const worstHum = Math.min(...humRows.map((r) => r.humReductionDb!));
  const worstRtf = Math.max(...enhanceRows.map((r) => r.rtf));
  const cpuRtfs = enhanceRows.map((r) => r.cpuRtf).filter((v): v is number => v !== null);
  const worstCpuRtf = cpuRtfs.length ? Math.max(...cpuRtfs) : NaN;
  out.push(
    '',
    `Speech: ${round(seconds, 1)} s, 8 sentences, 48 kHz mono. Hum: 8 harmonics (1/k amplitudes) 10 dB under the speech, white noise 30 dB under. Hum reduction is measured on residuals: input minus clean speech, output minus the clean speech passed through the engine's own notches (the clean voice alone has ${round(humFloorDb(50), 1)} / ${round(humFloorDb(60), 1)} dB of its power at the 50 / 60 Hz harmonic frequencies; removing that is speech lost, not hum left).`,
  );
  const med = (v: number[]) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  out.push('', '### Voice denoiser ablation (median SI-SDR improvement over the six noisy inputs)', '');
  out.push('| chain | median improvement dB | per input (white 0/5/10, pink 0/5/10) |', '|---|---|---|');
  const rowOf = (name: string, v: number[]) => `| ${name} | ${round(med(v))} | ${v.map((x) => round(x)).join(', ')} |`;
  out.push(rowOf('RNNoise alone', ablation.rnnoise));
  out.push(rowOf('Wiener alone (noise from RNNoise voice-free frames)', ablation.wiener));
  out.push(rowOf('RNNoise and Wiener outputs averaged', ablation.averaged));
  out.push(rowOf('RNNoise-guided two-step Wiener (the engine)', ablation.twoStep));
  out.push(rowOf('full voice preset (de-esser, leveler, -16 LUFS under -1 dBTP)', noiseRows));
  out.push(
    '',
    `Clean speech: peak-to-loudness ratio ${round(cleanPlr)} dB; the -16 LUFS / -1 dBTP stage alone on the clean speech gives SI-SDR ${limiterOnly.map(([r, v]) => `${round(v)} dB (release ${r * 1000} ms)`).join(', ')} with the look-ahead limiter (1 ms / 2 ms), ${clipStage.method === 'true-peak clipper' ? `${round(clipperSiSdr)} dB with the voice preset's true-peak clipper (${round(clipStage.neededReductionDb)} dB needed at the loudest peak, ${round(clipStage.stats.limitedFraction * 100, 1)} % of samples changed)` : `n/a with the true-peak clipper (${round(clipStage.neededReductionDb)} dB needed, more than it may take)`}.`,
  );
  out.push('', '### Targets', '');
  out.push('| target | measured | met |', '|---|---|---|');
  const allMaster = masterRows.every((r) => r.pass);
  if (only.has('master'))
    out.push(
      `| every master within 0.5 LU of target and <= -1.0 dBTP | worst error ${round(Math.max(...masterRows.map((r) => r.errorLu)))} LU, highest peak ${round(Math.max(...masterRows.map((r) => Math.max(r.tp44, r.tp48))))} dBTP | ${allMaster ? 'yes' : 'NO'} |`,
    );
  out.push(
    `| median SI-SDR improvement >= 8 dB (white/pink, 0-10 dB SNR) | ${round(median)} dB | ${median >= 8 ? 'yes' : 'NO'} |`,
  );
  out.push(`| hum reduced by >= 30 dB | worst ${round(worstHum, 1)} dB | ${worstHum >= 30 ? 'yes' : 'NO'} |`);
  out.push(
    `| enhancement real-time factor <= 0.05 (CPU time of the job and its ffmpeg children; wall time in brackets, the machine is shared) | worst ${round(worstCpuRtf, 3)} (wall ${round(worstRtf, 3)}) | ${worstCpuRtf <= 0.05 ? 'yes' : 'NO'} |`,
  );
  if (only.has('stems')) {
    const st = await evaluateSeparation(dir, quick, log);
    out.push('', ...st.lines);
    out.push('', '| target | measured | met |', '|---|---|---|', ...separationTargets(st.rows, st.runs));
    await writeFile(join(dir, 'results-stems.json'), JSON.stringify({ rows: st.rows, runs: st.runs }, null, 2));
  }
  if (only.has('mix')) {
    const mx = await evaluateMixing(dir, quick, log);
    out.push('', ...mx.lines);
    out.push('', '| target | measured | met |', '|---|---|---|', ...mixingTargets(mx.songs));
    await writeFile(join(dir, 'results-mix.json'), JSON.stringify({ rows: mx.rows, songs: mx.songs }, null, 2));
  }
  process.stdout.write(`${out.join('\n')}\n`);
  await writeFile(
    join(dir, 'results.json'),
    JSON.stringify({ masterRows, enhanceRows, median, worstHum, worstRtf }, null, 2),
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`eval failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
