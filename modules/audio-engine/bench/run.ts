/**
 * `npm run bench:engine [-- --runs 3] [-- --core 1] [-- --out <dir>] [-- --only master,stems,mix]`
 *
 * Renders a 4-minute stereo track (fluidsynth, GM sound font), then alternates, on one pinned CPU core (taskset):
 * the engine's full mastering job through its CLI (decode, analysis, processing, both outputs, preview, report) and
 * ffmpeg's two-pass loudnorm on the same file (pass 1 measures, pass 2 renders a 44.1 kHz WAV with the measured
 * values). Prints per-step real-time factors (median over runs, from the job's own stage timings), the end-to-end
 * wall times and the machine. Wall times include process start-up for both.
 *
 * Stems and mixing: a 4-minute multitrack song (multitrack.ts, every part rendered alone) is separated in every mode
 * and its five parts are mixed, each through the CLI pinned to the same core, with the peak memory of the process
 * (`/usr/bin/time -f %M` when present).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { cpus, release, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { toolPath } from '../src/io/tools';
import { renderSong, which } from '../eval/material';
import { renderMultitrack } from '../eval/multitrack';
import { writeWav } from '../src/io/wav';

const run = promisify(execFile);
const log = (m: string) => process.stderr.write(`${m}\n`);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function pinned(core: number | null, cmd: string, args: string[]): [string, string[]] {
  return core === null ? [cmd, args] : ['taskset', ['-c', String(core), cmd, ...args]];
}

async function timed(cmd: string, args: string[]): Promise<{ seconds: number; stdout: string; stderr: string }> {
  const t0 = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${stderr.slice(-500)}`));
      else resolvePromise({ seconds: (performance.now() - t0) / 1000, stdout, stderr });
    });
  });
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const runs = Number(arg('runs') ?? 3);
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = resolve(base, arg('out') ?? join(tmpdir(), 'kora-engine-bench'));
  let core: number | null = Number(arg('core') ?? (cpus().length > 1 ? 1 : 0));
  try {
    which('taskset');
  } catch {
    core = null;
    log('bench: taskset not found, runs are not pinned to one core');
  }
  const only = new Set((arg('only') ?? 'master,stems,mix').split(','));
  await mkdir(dir, { recursive: true });
  const out: string[] = [];
  const { stdout: version } = await run(ffmpeg(), ['-version']);
  const machine = `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Linux ${release()}, Node ${process.version}, ${version.split('\n')[0]}; pinned to core ${core ?? 'none'} with taskset.`;
  if (only.has('master')) out.push(...(await benchMaster(dir, runs, core)), '');
  if (only.has('stems') || only.has('mix')) out.push(...(await benchStemsMix(dir, runs, core, only)), '');
  out.push(machine);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

const ffmpeg = () => toolPath('ffmpeg');
const hasTime = (() => {
  try {
    which('time');
    return true;
  } catch {
    return false;
  }
})();

/** Runs a CLI job pinned to `core`; wall seconds, the job's JSON and the peak resident memory (MB) when measurable. */
async function cliJob(
  core: number | null,
  args: string[],
): Promise<{ seconds: number; json: unknown; peakMb: number | null }> {
  const cli = join(__dirname, '..', 'cli.js');
  const base = [process.execPath, cli, ...args, '--quiet'];
  const [cmd, full] = hasTime
    ? pinned(core, '/usr/bin/time', ['-f', 'peak-kb %M', ...base])
    : pinned(core, base[0]!, base.slice(1));
  const r = await timed(cmd, full);
  const m = /peak-kb (\d+)/.exec(r.stderr);
  return { seconds: r.seconds, json: JSON.parse(r.stdout) as unknown, peakMb: m ? Number(m[1]) / 1024 : null };
}

async function benchStemsMix(dir: string, runs: number, core: number | null, only: Set<string>): Promise<string[]> {
  log('bench: rendering a 4-minute multitrack song with fluidsynth (every part alone)');
  // 112 bars of 4/4 at 112 BPM = 240 s.
  const song = await renderMultitrack(dir, {
    name: 'bench-4min',
    style: 'pop',
    bpm: 112,
    bars: 112,
    tonic: 57,
    seed: 3,
    tuning: false,
  });
  const mixture = join(dir, 'bench-4min-mixture.wav');
  await writeWav(mixture, song.mixture, { encoding: 'pcm24', seed: 1 });
  const duration = song.mixture.channels[0]!.length / 44100;
  const out: string[] = [];
  if (only.has('stems')) {
    out.push(
      `### Stem separation of a ${duration.toFixed(0)} s stereo 44.1 kHz song, one core (median of ${runs} runs)`,
      '',
    );
    out.push(
      '| mode | wall seconds (process start to exit) | all runs | real-time factor | separate stage s | peak memory MB |',
      '|---|---|---|---|---|---|',
    );
    for (const mode of ['vocals', 'drums', 'guitars', 'full']) {
      const times: number[] = [];
      const sep: number[] = [];
      let peak: number | null = null;
      for (let r = 0; r < runs; r++) {
        const outDir = join(dir, `stems-${mode}-${r}`);
        await rm(outDir, { recursive: true, force: true });
        log(`bench: stems --mode ${mode}, run ${r + 1}/${runs}`);
        const res = await cliJob(core, ['stems', mixture, outDir, '--mode', mode]);
        times.push(res.seconds);
        sep.push((res.json as { timings: Record<string, number> }).timings.separate ?? NaN);
        peak = Math.max(peak ?? 0, res.peakMb ?? 0) || null;
      }
      const m = median(times);
      out.push(
        `| ${mode} | ${m.toFixed(2)} | ${times.map((t) => t.toFixed(2)).join(', ')} | ${(m / duration).toFixed(4)} | ${median(sep).toFixed(2)} | ${peak === null ? 'n/a' : peak.toFixed(0)} |`,
      );
    }
    out.push('');
  }
  if (only.has('mix')) {
    const parts = song.parts.slice(0, 5);
    const files: string[] = [];
    for (const { part, pcm } of parts) {
      const f = join(dir, `bench-mix-${part.name}.wav`);
      await writeWav(f, pcm, { encoding: 'pcm24', seed: 2 });
      files.push(f);
    }
    const times: number[] = [];
    let peak: number | null = null;
    let timings: Record<string, number> = {};
    for (let r = 0; r < runs; r++) {
      const outDir = join(dir, `mix-${r}`);
      await rm(outDir, { recursive: true, force: true });
      log(`bench: mix of ${files.length} tracks, run ${r + 1}/${runs}`);
      const res = await cliJob(core, ['mix', outDir, '--style', 'POP', '--rate', '44100', ...files]);
      times.push(res.seconds);
      timings = (res.json as { timings: Record<string, number> }).timings;
      peak = Math.max(peak ?? 0, res.peakMb ?? 0) || null;
    }
    out.push(
      `### Mixing ${files.length} tracks of ${duration.toFixed(0)} s (${parts.map((p) => p.part.name).join(', ')}), one core (median of ${runs} runs)`,
      '',
    );
    out.push('| end to end | wall seconds | all runs | real-time factor | peak memory MB |', '|---|---|---|---|---|');
    const m = median(times);
    out.push(
      `| engine mix | ${m.toFixed(2)} | ${times.map((t) => t.toFixed(2)).join(', ')} | ${(m / duration).toFixed(4)} | ${peak === null ? 'n/a' : peak.toFixed(0)} |`,
      '',
    );
    out.push('| stage (last run) | seconds |', '|---|---|');
    for (const [k, v] of Object.entries(timings)) out.push(`| ${k} | ${v.toFixed(2)} |`);
  }
  return out;
}

async function benchMaster(dir: string, runs: number, core: number | null): Promise<string[]> {
  log('bench: rendering a 4-minute track with fluidsynth');
  // 112 bars of 4/4 at 112 BPM = 240 s.
  const track = await renderSong(dir, 'track-4min', 112, 3);
  const cli = join(__dirname, '..', 'cli.js');
  const ffmpeg = toolPath('ffmpeg');
  const engineTimes: number[] = [];
  const loudnormTimes: number[] = [];
  const stages = new Map<string, number[]>();
  let duration = 240;
  for (let r = 0; r < runs; r++) {
    const outDir = join(dir, `master-${r}`);
    await rm(outDir, { recursive: true, force: true });
    log(`bench: run ${r + 1}/${runs}: engine master`);
    const [cmd, args] = pinned(core, process.execPath, [cli, 'master', track, outDir, '--quiet']);
    const engine = await timed(cmd, args);
    engineTimes.push(engine.seconds);
    const result = JSON.parse(engine.stdout) as { durationSec: number; timings: Record<string, number> };
    duration = result.durationSec;
    for (const [k, v] of Object.entries(result.timings)) stages.set(k, [...(stages.get(k) ?? []), v]);
    log(`bench: run ${r + 1}/${runs}: ffmpeg loudnorm, two passes`);
    const pass1 = [
      '-hide_banner',
      '-nostats',
      '-i',
      track,
      '-af',
      'loudnorm=I=-14:TP=-1:LRA=11:print_format=json',
      '-f',
      'null',
      '-',
    ];
    const [c1, a1] = pinned(core, ffmpeg, pass1);
    const first = await timed(c1, a1);
    const json = /\{[\s\S]*\}/.exec(first.stderr.slice(first.stderr.lastIndexOf('[Parsed_loudnorm')))?.[0] ?? '{}';
    const m = JSON.parse(json) as Record<string, string>;
    const measured = `measured_I=${m.input_i}:measured_TP=${m.input_tp}:measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}`;
    const pass2 = [
      '-hide_banner',
      '-nostats',
      '-y',
      '-i',
      track,
      '-af',
      `loudnorm=I=-14:TP=-1:LRA=11:${measured}:linear=true`,
    ];
    const [c2, a2] = pinned(core, ffmpeg, [...pass2, '-ar', '44100', join(dir, `loudnorm-${r}.wav`)]);
    const second = await timed(c2, a2);
    loudnormTimes.push(first.seconds + second.seconds);
  }
  const out: string[] = [];
  out.push(`### Mastering a ${duration.toFixed(0)} s stereo 44.1 kHz track (median of ${runs} runs)`, '');
  out.push('| step | seconds | real-time factor |', '|---|---|---|');
  for (const [k, v] of stages) {
    if (k === 'total') continue;
    const s = median(v);
    out.push(`| ${k} | ${s.toFixed(2)} | ${(s / duration).toFixed(4)} |`);
  }
  const total = median(stages.get('total') ?? [0]);
  out.push(`| **total inside the job** | ${total.toFixed(2)} | ${(total / duration).toFixed(4)} |`);
  out.push('', '| end to end, one core | wall seconds (median) | all runs |', '|---|---|---|');
  out.push(
    `| engine: \`engine master\` (process start to exit) | ${median(engineTimes).toFixed(2)} | ${engineTimes.map((t) => t.toFixed(2)).join(', ')} |`,
  );
  out.push(
    `| ffmpeg loudnorm, pass 1 + pass 2 | ${median(loudnormTimes).toFixed(2)} | ${loudnormTimes.map((t) => t.toFixed(2)).join(', ')} |`,
  );
  out.push(
    '',
    `Engine within 10 s: ${median(engineTimes) <= 10 ? 'yes' : 'NO'}; not slower than two-pass loudnorm: ${median(engineTimes) <= median(loudnormTimes) ? 'yes' : 'NO'}.`,
  );
  return out;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
