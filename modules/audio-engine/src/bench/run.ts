/**
 * `npm run bench:engine [-- --runs 3] [-- --core 1] [-- --out <dir>]`
 *
 * Renders a 4-minute stereo track (fluidsynth, GM sound font), then alternates, on one pinned CPU core (taskset):
 * the engine's full mastering job through its CLI (decode, analysis, processing, both outputs, preview, report) and
 * ffmpeg's two-pass loudnorm on the same file (pass 1 measures, pass 2 renders a 44.1 kHz WAV with the measured
 * values). Prints per-step real-time factors (median over runs, from the job's own stage timings), the end-to-end
 * wall times and the machine. Wall times include process start-up for both.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { cpus, release, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { toolPath } from '../io/tools';
import { renderSong, which } from '../eval/material';

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
  await mkdir(dir, { recursive: true });
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
  const { stdout: version } = await run(ffmpeg, ['-version']);
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
    `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Linux ${release()}, Node ${process.version}, ${version.split('\n')[0]}; pinned to core ${core ?? 'none'} with taskset.`,
  );
  out.push(
    `Engine within 10 s: ${median(engineTimes) <= 10 ? 'yes' : 'NO'}; not slower than two-pass loudnorm: ${median(engineTimes) <= median(loudnormTimes) ? 'yes' : 'NO'}.`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
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
