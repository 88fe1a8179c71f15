// `npm run bench:limits [-- --only master,stems,enhance] [-- --minutes master=5,stems=3]`: the memory the largest input each service accepts takes.
//
// The upload limits (`modules/audio/src/application/upload/upload-rules.ts`) bound a job by its duration, because the
// engine holds a job's audio at its working rate: a 50 MB MP3 lasts almost an hour. For each service this makes the
// longest file it accepts, as an MP3 within its size limit (ffmpeg, a chord with a pulse and noise), runs the engine's
// job on it through its command line in a worker thread (as the server does), and samples the resident memory of the
// process and its children (ffmpeg) every 20 ms. Prints the peak, the wall time and the machine.
//
// A child between its fork and its exec is a copy of the engine whose resident pages are the engine's own, shared
// copy-on-write: adding its resident set counted the engine twice whenever a sample fell in that window (the worker
// starts an ffmpeg per preview, so it often did, and the peaks came out bimodal). Such a child (its executable still
// the engine's) is not added; once it has become ffmpeg it is.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'modules', 'audio-engine', 'dist', 'cli.js');
// The limits themselves, as the server applies them (the build's `upload-rules`).
const { MAX_DURATION_SEC } = createRequire(import.meta.url)(
  join(ROOT, 'modules', 'audio', 'dist', 'application', 'upload', 'upload-rules.js'),
);
const CASES = [
  { name: 'master', service: 'AI_MASTERING', bitrate: '320k', args: (file, out) => ['master', file, out] },
  {
    name: 'stems',
    service: 'STEM_SEPARATION',
    bitrate: '320k',
    args: (file, out) => ['stems', file, out, '--mode', 'full'],
  },
  {
    name: 'enhance',
    service: 'AUDIO_ENHANCEMENT',
    bitrate: '128k',
    args: (file, out) => ['enhance', file, out, '--preset', 'podcast'],
  },
].map((c) => ({ ...c, minutes: MAX_DURATION_SEC[c.service] / 60 }));

/** `--minutes master=5,stems=3`: other durations than the limits, to see how memory grows with the duration. */
const minutes = (() => {
  const at = process.argv.indexOf('--minutes');
  if (at < 0) return new Map();
  return new Map(process.argv[at + 1].split(',').map((pair) => [pair.split('=')[0], Number(pair.split('=')[1])]));
})();

const only = (() => {
  const at = process.argv.indexOf('--only');
  return at >= 0 ? new Set(process.argv[at + 1].split(',')) : null;
})();

function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function exe(pid) {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** Every descendant of `pid`, from /proc. */
function tree(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = [pid];
  for (let i = 0; i < found.length; i += 1) {
    for (const [child, parent] of parents) if (parent === found[i]) found.push(child);
  }
  return found;
}

function measure(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args, '--worker', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    let stderr = '';
    const engine = exe(child.pid);
    const timer = setInterval(() => {
      const [root, ...children] = tree(child.pid);
      let kb = rssKb(root);
      for (const pid of children) if (exe(pid) !== engine) kb += rssKb(pid);
      peak = Math.max(peak, kb);
    }, 20);
    child.stdout.resume();
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`engine ${args[0]} exited with ${code}: ${stderr.slice(-400)}`));
      else resolve({ peakMb: peak / 1024, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'kora-limits-'));
try {
  const rows = [];
  for (const c of CASES) {
    if (only && !only.has(c.name)) continue;
    const file = join(dir, `${c.name}.mp3`);
    c.minutes = minutes.get(c.name) ?? c.minutes;
    const seconds = c.minutes * 60;
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.05:duration=${seconds}`],
      ...['-filter_complex', '[0][1][2]amix=inputs=3,apulsator=hz=2', '-ac', '2', '-ar', '44100'],
      ...['-c:a', 'libmp3lame', '-b:a', c.bitrate, file],
    ]);
    const sizeMb = statSync(file).size / (1024 * 1024);
    process.stderr.write(`bench:limits: ${c.name}, ${c.minutes} min (${sizeMb.toFixed(1)} MB)...\n`);
    const out = join(dir, `${c.name}-out`);
    const result = await measure(c.args(file, out));
    rows.push(
      `| ${c.service} | ${c.minutes} min, MP3 ${c.bitrate} (${sizeMb.toFixed(1)} MB) | ${result.peakMb.toFixed(0)} | ${result.seconds.toFixed(1)} |`,
    );
    rmSync(out, { recursive: true, force: true });
  }
  console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model}), Node ${process.version}`);
  console.log('| service | the longest input it accepts | peak memory, engine and children (MB) | wall seconds |');
  console.log('|---|---|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
