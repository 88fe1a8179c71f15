#!/usr/bin/env node
// Old against new build of the audio engine, alternated: `node scripts/bench-engine-ab.mjs --a <dist> --b <dist>
// --material <dir> [--pairs 5] [--seconds 12] [--only master,enhance,stems,mix]`. <dist> is a built modules/audio-engine/dist (keep a copy of the old
// one before rebuilding, inside the repository's node_modules so its requires resolve); <dir> is the material of
// `modules/audio-engine/dist/eval/fingerprint.js` (<its --dir>/material). Every input is cut to --seconds, then each
// pair runs A then B, each in a fresh process doing master (default options), enhance (voice), stems (full) and mix
// (the fingerprint's five tracks) in turn. Prints per job the median and the range of the process CPU time
// (user + system, the fair figure on a shared machine; ffmpeg children are not counted and are the same for both)
// and of the wall time, and the B/A ratio of the medians.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const A = resolve(arg('a'));
const B = resolve(arg('b'));
const material = resolve(arg('material'));
const pairs = Number(arg('pairs', 5));
const seconds = String(arg('seconds', 12));
const work = join(tmpdir(), 'kora-engine-ab');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const m = JSON.parse(readFileSync(join(material, 'material.json'), 'utf8'));
const cut = (path, name) => {
  const out = join(work, name);
  execFileSync('ffmpeg', ['-y', '-v', 'error', '-i', path, '-t', seconds, '-c', 'copy', out]);
  return out;
};
const jobs = {
  master: { kind: 'master', input: cut(m.song, 'song.wav'), options: {} },
  enhance: { kind: 'enhance', input: cut(m.speech, 'speech.wav'), options: { preset: 'voice' } },
  stems: { kind: 'stems', input: cut(m.mixture, 'mixture.wav'), options: { mode: 'full' } },
  mix: {
    kind: 'mix',
    inputs: m.mix.map((t, k) => ({ ...t, path: cut(t.path, `track-${k}.wav`) })),
    options: { style: 'ROCK_INDIE', sampleRate: 44100 },
  },
};
const only = arg('only')?.split(',');
if (only) for (const name of Object.keys(jobs)) if (!only.includes(name)) delete jobs[name];
writeFileSync(join(work, 'jobs.json'), JSON.stringify(jobs));

const child = `
const { runJobInline } = require(process.argv[1] + '/job/run-inline.js');
const jobs = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
(async () => {
  const out = {};
  for (const [name, job] of Object.entries(jobs)) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await runJobInline({ ...job, outDir: process.argv[3] + '/' + name });
    const c = process.cpuUsage(c0);
    out[name] = { cpu: (c.user + c.system) / 1e6, wall: (performance.now() - t0) / 1000 };
  }
  process.stdout.write(JSON.stringify(out));
})();
`;
const runs = { A: [], B: [] };
const load0 = loadavg();
for (let p = 0; p < pairs; p++) {
  for (const [label, dist] of [
    ['A', A],
    ['B', B],
  ]) {
    const r = spawnSync(process.execPath, ['-e', child, dist, join(work, 'jobs.json'), join(work, `out-${label}`)], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`${label} failed: ${r.stderr}`);
    runs[label].push(JSON.parse(r.stdout));
    process.stderr.write(`pair ${p + 1} ${label}: ${r.stdout}\n`);
  }
}
const load1 = loadavg();
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (v) => v.toFixed(2);
const lines = [
  `| job | A CPU s median (range) | B CPU s median (range) | B/A CPU | A wall s median (range) | B wall s median (range) | B/A wall |`,
  '|---|---|---|---|---|---|---|',
];
for (const name of Object.keys(jobs)) {
  const cell = (label, key) => {
    const v = runs[label].map((r) => r[name][key]);
    return [median(v), `${f(median(v))} (${f(Math.min(...v))}-${f(Math.max(...v))})`];
  };
  const [ac, acs] = cell('A', 'cpu');
  const [bc, bcs] = cell('B', 'cpu');
  const [aw, aws] = cell('A', 'wall');
  const [bw, bws] = cell('B', 'wall');
  lines.push(`| ${name} | ${acs} | ${bcs} | ${f(bc / ac)} | ${aws} | ${bws} | ${f(bw / aw)} |`);
}
lines.push(
  '',
  `${pairs} pairs, A then B in each, inputs cut to ${seconds} s; ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}; load average ${load0.map(f).join(' ')} at the start, ${load1.map(f).join(' ')} at the end.`,
);
process.stdout.write(`${lines.join('\n')}\n`);
