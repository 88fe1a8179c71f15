import '../src/runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import { toolPath } from '@kora/audio-engine';
import { IdentityProvider, SignUpService } from '@kora/identity';
import { uuidv7 } from '@kora/kernel';
import { cpuSeconds } from './process-cpu';
import { seedMasteredTrack } from './seed-track';
import autocannon from 'autocannon';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config';
import { BuiltInIdentityProvider } from '../src/identity-provider/built-in-provider';
import { closeStores, openStores } from '../src/infra/infra.module';
import { CLI_ROLE, cliApplication } from '../src/cli/cli-logger';

/**
 * `npm run bench:api`: the API on its embedded defaults, as a separate server process on loopback, each measure
 * beside its floor: the least a server can do for the same request, measured in the same run, in its own process
 * (bench-floor.ts). Absolute figures move from host to host; the ratio to the floor holds.
 * 1. GET /api/audio/tracks (page 1, 10 per page) at 200 concurrent connections for 15 s, over an account with 500
 *    tracks: latency percentiles and requests per second. Floor: a bare Fastify handler returning the same body.
 * 2. Socket latency: from sending a deletion to the `track.status` message on the owner's socket. Floor: a bare
 *    Socket.IO server emitting the message when the request arrives.
 * 3. Five 49 MB WAV uploads: throughput from the first byte to the answer (median), and the server's resident memory
 *    growth (sampled every 20 ms from /proc during each upload; the worst). Floor: a bare node:http server streaming
 *    the request to a file and fsyncing it before it answers.
 * 4. The same list measure while jobs run: the server restarted with its default of one job at a time (WORKERS=1),
 *    20 accounts each upload a 4-minute WAV for mastering, then the list is measured as in 1 while those 20 jobs
 *    are processed or waiting; the tracks' statuses are polled once a second meanwhile, to show that they were.
 *
 * `--only list,socket,upload,jobs` runs some of them (default: all).
 */
const ROOT = join(__dirname, '..', '..', '..');
const TRACKS = 500;
/** Deletions timed by the socket measure: enough that its p99 is not simply the slowest one (the fourth slowest). */
const DELETIONS = 400;
/**
 * Deletions made first on each server and not timed: the first requests of a process run code the JIT has not
 * compiled yet (at 400 deletions the slowest three were the first, second and tenth).
 */
const WARM_UP_DELETIONS = 20;
const UPLOADS = 5;
/** Accounts uploading a track each in the measure with jobs. */
const JOB_ACCOUNTS = 20;
/** Seconds of audio in each of their uploads (a 4-minute song: 40 MB of 16-bit stereo WAV at 44.1 kHz). */
const JOB_SECONDS = 240;
/** The server's operators' token, for its /metrics. */
const OPS_TOKEN = `bench-${randomBytes(16).toString('hex')}`;
const MEASURES = ['list', 'socket', 'upload', 'jobs'] as const;
type Measure = (typeof MEASURES)[number];
const LIST_PATH = '/api/audio/tracks?page=1&limit=10';

function selected(): Set<Measure> {
  const index = process.argv.indexOf('--only');
  if (index < 0) return new Set(MEASURES);
  const names = (process.argv[index + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !MEASURES.includes(name as Measure));
  if (names.length === 0 || unknown.length > 0) throw new Error(`--only takes some of ${MEASURES.join(',')}`);
  return new Set(names as Measure[]);
}

/** The list measure: the same settings in both phases. */
function measureList(port: number, auth: Record<string, string>): Promise<autocannon.Result> {
  return autocannon({ url: `http://127.0.0.1:${port}${LIST_PATH}`, connections: 200, duration: 15, headers: auth });
}

async function main(): Promise<void> {
  const only = selected();
  const dir = mkdtempSync(join(tmpdir(), 'kora-bench-api-'));
  const port = 18_000 + Math.floor(Math.random() * 1_000);
  const env = {
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    WORKERS: '0',
    OPS_TOKEN,
  };
  const rows: string[] = [];
  try {
    process.stderr.write('creating an account and seeding tracks...\n');
    execFileSync(
      process.execPath,
      [join(ROOT, 'backend/dist/cli/users.js'), 'create', 'bench@example.sn', 'bench-password-1'],
      { env, stdio: 'ignore' },
    );
    const token = execFileSync(
      process.execPath,
      [join(ROOT, 'backend/dist/cli/users.js'), 'token', 'bench@example.sn', '--minutes', '120'],
      {
        env,
        encoding: 'utf8',
      },
    ).trim();
    const userId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    await seedTracks(env, userId);
    const uploaders = only.has('jobs') ? await createAccounts(env, JOB_ACCOUNTS) : [];
    const auth = { Authorization: `Bearer ${token}` };

    if (only.has('list') || only.has('socket') || only.has('upload')) {
      const server = await startServer(env, port, auth);
      try {
        if (only.has('list')) rows.push(...(await compareList(dir, port, server.pid, auth)));
        if (only.has('socket')) rows.push(...(await compareSocket(dir, port, token, auth)));
        if (only.has('upload')) rows.push(...(await compareUpload(dir, port, server.pid, token)));
      } finally {
        await stopServer(server);
      }
    }

    if (only.has('jobs')) {
      // The socket measure deleted some of the account's tracks.
      const left = only.has('socket') ? TRACKS - WARM_UP_DELETIONS - DELETIONS : TRACKS;
      rows.push(...(await measureListWithJobs(dir, env, port, auth, left, uploaders)));
    }

    console.log(
      `API on the embedded defaults (${cpus().length} cores, ${cpus()[0]?.model ?? ''}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})\n`,
    );
    console.log('| measure | Kora | floor | ratio | target |');
    console.log('|---|---:|---:|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A row of the printed table: Kora's figure, the floor's and their ratio where there is a floor. */
function row(measure: string, kora: string, target = '-', floor = '-', ratio = '-'): string {
  return `| ${measure} | ${kora} | ${floor} | ${ratio} | ${target} |`;
}

const ratio = (kora: number, floor: number): string => `${(kora / floor).toFixed(2)}x`;
const rps = (value: number): string => Math.round(value).toLocaleString('en-US');

/** Runs `work` against a floor server (bench-floor.js) started in its own process on a free port, then stops it. */
async function withFloor<T>(
  kind: 'list' | 'upload' | 'socket',
  argument: string,
  work: (port: number, pid: number | undefined) => Promise<T>,
): Promise<T> {
  const port = 19_000 + Math.floor(Math.random() * 1_000);
  const floor = spawn(process.execPath, [join(__dirname, 'bench-floor.js'), kind, String(port), argument], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForServer(port);
    return await work(port, floor.pid);
  } finally {
    await stopServer(floor);
  }
}

/**
 * Measure 1: the track list at 200 connections, Kora and a bare Fastify handler answering Kora's own body, in
 * the order floor, Kora, floor (the floor's figures are the mean of its two runs, so that a drift of the machine
 * during the measure weighs on both sides).
 */
async function compareList(
  dir: string,
  port: number,
  pid: number | undefined,
  auth: Record<string, string>,
): Promise<string[]> {
  const bodyFile = join(dir, 'list-body.json');
  writeFileSync(bodyFile, await (await fetch(`http://127.0.0.1:${port}${LIST_PATH}`, { headers: auth })).text());
  process.stderr.write('GET /api/audio/tracks at 200 connections for 15 s: floor, Kora, floor...\n');
  // The server's CPU time per answered request, from /proc: unlike the rates, it hardly moves with the load of the
  // machine, so it shows where a ratio comes from when the run shared the cores.
  const measured = async (at: number, serverPid: number | undefined, headers: Record<string, string>) => {
    const before = cpuSeconds(serverPid);
    const result = await measureList(at, headers);
    return { result, cpuUs: ((cpuSeconds(serverPid) - before) / result.requests.total) * 1e6 };
  };
  const [floorFirst, koraRun, floorSecond] = await withFloor('list', bodyFile, async (floorPort, floorPid) => [
    await measured(floorPort, floorPid, {}),
    await measured(port, pid, auth),
    await measured(floorPort, floorPid, {}),
  ]);
  const [first, kora, second] = [floorFirst!.result, koraRun!.result, floorSecond!.result];
  const floorCpu = (floorFirst!.cpuUs + floorSecond!.cpuUs) / 2;
  const floorRps = (first!.requests.average + second!.requests.average) / 2;
  const floorP99 = (first!.latency.p99 + second!.latency.p99) / 2;
  return [
    row(
      'GET /api/audio/tracks, 200 connections, 15 s: requests/s',
      rps(kora!.requests.average),
      '>= 0.5x',
      `${rps(floorRps)} (${rps(first!.requests.average)}, ${rps(second!.requests.average)})`,
      ratio(kora!.requests.average, floorRps),
    ),
    row(
      'latency p50',
      `${kora!.latency.p50} ms`,
      '-',
      `${(first!.latency.p50 + second!.latency.p50) / 2} ms`,
      ratio(kora!.latency.p50, (first!.latency.p50 + second!.latency.p50) / 2),
    ),
    row(
      'latency p99',
      `${kora!.latency.p99} ms`,
      '<= 2x',
      `${floorP99} ms (${first!.latency.p99}, ${second!.latency.p99})`,
      ratio(kora!.latency.p99, floorP99),
    ),
    row(
      'server CPU time per request (all threads)',
      `${koraRun!.cpuUs.toFixed(0)} µs`,
      '-',
      `${floorCpu.toFixed(0)} µs`,
      ratio(koraRun!.cpuUs, floorCpu),
    ),
    row(
      'errors / non-2xx',
      `${kora!.errors} / ${kora!.non2xx}`,
      '0',
      `${first!.errors + second!.errors} / ${first!.non2xx + second!.non2xx}`,
    ),
  ];
}

/**
 * Measure 2: 400 deletions on Kora, each beside one on a bare Socket.IO emit and one on a bare durable emit (a line
 * fdatasynced to a log, then the emit), alternated, timed to the `track.status` message, after 20 untimed ones on
 * each (warm-up).
 */
async function compareSocket(
  dir: string,
  port: number,
  token: string,
  auth: Record<string, string>,
): Promise<string[]> {
  process.stderr.write(
    `socket latency: ${DELETIONS} deletions each (after ${WARM_UP_DELETIONS} untimed), Kora and the floors alternated...\n`,
  );
  const wanted = WARM_UP_DELETIONS + DELETIONS;
  const listed: { tracks: Array<{ id: string }> } = { tracks: [] };
  for (let page = 1; listed.tracks.length < wanted; page += 1) {
    const answer = (await (
      await fetch(`http://127.0.0.1:${port}/api/audio/tracks?page=${page}&limit=100`, { headers: auth })
    ).json()) as { tracks: Array<{ id: string }> };
    if (answer.tracks.length === 0) break;
    listed.tracks.push(...answer.tracks.slice(0, wanted - listed.tracks.length));
  }
  const [kora, floor, durable] = await withFloor('socket', mkdtempSync(join(dir, 'socket-')), async (floorPort) => {
    const koraSocket = await statusSocket(port, token);
    const floorSocket = await statusSocket(floorPort, token);
    try {
      const gaps: [number[], number[], number[]] = [[], [], []];
      for (const [index, track] of listed.tracks.entries()) {
        const round = [
          await timeDeletion(`http://127.0.0.1:${port}/api/audio`, koraSocket, track.id, auth),
          await timeDeletion(`http://127.0.0.1:${floorPort}/api/audio`, floorSocket, randomUUID(), {}),
          await timeDeletion(`http://127.0.0.1:${floorPort}/durable`, floorSocket, randomUUID(), {}),
        ];
        if (index >= WARM_UP_DELETIONS) round.forEach((gap, i) => gaps[i]!.push(gap));
      }
      return gaps.map(percentiles);
    } finally {
      koraSocket.close();
      floorSocket.close();
    }
  });
  const ms = (value: number): string => value.toFixed(1);
  return [
    row(
      'track.status on the socket, from sending the deletion: p50',
      `${ms(kora!.p50)} ms`,
      '-',
      `${ms(floor!.p50)} ms`,
      ratio(kora!.p50, floor!.p50),
    ),
    row(
      'p99 (max)',
      `${ms(kora!.p99)} ms (${ms(kora!.max)})`,
      '<= 2x',
      `${ms(floor!.p99)} ms (${ms(floor!.max)})`,
      ratio(kora!.p99, floor!.p99),
    ),
    row(
      'the same against a bare durable emit (fdatasync, then emit): p50',
      `${ms(kora!.p50)} ms`,
      '-',
      `${ms(durable!.p50)} ms`,
      ratio(kora!.p50, durable!.p50),
    ),
    row(
      'p99 (max)',
      `${ms(kora!.p99)} ms (${ms(kora!.max)})`,
      '-',
      `${ms(durable!.p99)} ms (${ms(durable!.max)})`,
      ratio(kora!.p99, durable!.p99),
    ),
  ];
}

/**
 * Measure 3: five 49 MB uploads each on Kora and on a bare stream-to-disk with fsync, alternated: the median
 * throughput of each and their ratio, and Kora's worst memory growth.
 */
async function compareUpload(dir: string, port: number, pid: number | undefined, token: string): Promise<string[]> {
  process.stderr.write(`uploading 49 MB ${UPLOADS} times each, Kora and floor alternated...\n`);
  const file = join(dir, 'upload.wav');
  makeWav(file, 290);
  const size = statSync(file).size;
  const floorDir = mkdtempSync(join(dir, 'floor-'));
  const [kora, floor] = await withFloor('upload', floorDir, async (floorPort, floorPid) => {
    const koraRuns: Array<{ mbPerSecond: number; growthMb: number }> = [];
    const floorRuns: Array<{ mbPerSecond: number; growthMb: number }> = [];
    for (let run = 0; run < UPLOADS; run += 1) {
      const measured = await measureUpload(port, pid, token, file, size);
      koraRuns.push(measured);
      await deleteTrack(port, token, measured.id);
      const bare = await measureUpload(floorPort, floorPid, token, file, size);
      floorRuns.push(bare);
      await deleteTrack(floorPort, token, bare.id);
    }
    return [koraRuns, floorRuns];
  });
  const median = (runs: Array<{ mbPerSecond: number }>): number =>
    runs.map((run) => run.mbPerSecond).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const spread = (runs: Array<{ mbPerSecond: number }>): string =>
    `${Math.min(...runs.map((run) => run.mbPerSecond)).toFixed(0)}-${Math.max(...runs.map((run) => run.mbPerSecond)).toFixed(0)}`;
  const worst = (runs: Array<{ growthMb: number }>): string =>
    `${Math.max(...runs.map((run) => run.growthMb)).toFixed(1)} MB`;
  return [
    row(
      `upload of ${(size / 2 ** 20).toFixed(1)} MB: throughput, median of ${UPLOADS} (slowest-fastest)`,
      `${median(kora!).toFixed(0)} MB/s (${spread(kora!)})`,
      '>= 0.8x',
      `${median(floor!).toFixed(0)} MB/s (${spread(floor!)})`,
      ratio(median(kora!), median(floor!)),
    ),
    row(
      `upload: server memory growth (peak RSS - RSS before), worst of ${UPLOADS}`,
      worst(kora!),
      '< 64 MB',
      worst(floor!),
    ),
  ];
}

/** Starts the built server on `env` and waits until its read models show the account's `tracks`. */
async function startServer(
  env: NodeJS.ProcessEnv,
  port: number,
  auth: Record<string, string>,
  tracks = TRACKS,
): Promise<ChildProcess> {
  // BENCH_NODE_ARGS passes flags to the server process (for example --cpu-prof to profile it).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, join(ROOT, 'backend/dist/main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForServer(port);
    // The projections catch up on the log at start: wait until the list shows every track. (The accounts were
    // created before the server first started, so none gets demo tracks: nothing else runs at start.)
    for (let tries = 0; ; tries += 1) {
      const listed = await fetch(`http://127.0.0.1:${port}${LIST_PATH}`, { headers: auth });
      const { totalCount } = (await listed.json()) as { totalCount: number };
      if (totalCount === tracks) break;
      if (tries > 300) throw new Error(`expected ${tracks} tracks, the list says ${totalCount}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return server;
  } catch (error) {
    await stopServer(server);
    throw error;
  }
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}

/** A stereo 44.1 kHz 16-bit WAV of pink noise (ffmpeg). */
function makeWav(file: string, seconds: number): void {
  execFileSync(toolPath('ffmpeg'), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=0.2:duration=${seconds}`,
    '-ac',
    '2',
    '-ar',
    '44100',
    '-c:a',
    'pcm_s16le',
    file,
  ]);
}

interface Uploader {
  email: string;
  token: string;
}

/** Accounts of the built-in provider, registered as the sign-up does, each with an API token (one process for all). */
async function createAccounts(env: NodeJS.ProcessEnv, count: number): Promise<Uploader[]> {
  process.stderr.write(`creating ${count} accounts...\n`);
  const config = loadConfig({ ...env, PROJECTIONS: 'on', ...CLI_ROLE });
  const app = await cliApplication(config, 'warn');
  try {
    const provider = app.get(IdentityProvider);
    if (!(provider instanceof BuiltInIdentityProvider)) throw new Error('built-in provider expected');
    const accounts: Uploader[] = [];
    for (let index = 0; index < count; index += 1) {
      const email = `uploader-${index + 1}@example.sn`;
      const user = await provider.users.create({
        email,
        password: 'bench-password-1',
        givenName: `Uploader ${index + 1}`,
        familyName: '',
        locale: 'en',
        emailVerified: true,
      });
      await app.get(SignUpService).register(user._id, await provider.profile(user._id), 'en');
      const token = await provider.signAccessToken(user._id, 120, config.oidc.clientId, config.oidc.audience);
      accounts.push({ email, token });
    }
    return accounts;
  } finally {
    await app.close();
  }
}

const RUNNING = ['ANALYZING', 'ENHANCING', 'FINALIZING'];

/**
 * Measure 4: the server restarted with the default of one job at a time; each of the uploaders sends a 4-minute WAV
 * for mastering, then the list is measured exactly as in 1 while the jobs run. Every second the 20 tracks' statuses
 * are read (each with its owner's token): running (the engine is at work: analysing, processing or writing), waiting
 * (`PROCESSING`: requested, not started yet) or done. The server's CPU time over the measure is read from /proc.
 */
async function measureListWithJobs(
  dir: string,
  baseEnv: NodeJS.ProcessEnv,
  port: number,
  auth: Record<string, string>,
  tracksListed: number,
  uploaders: Uploader[],
): Promise<string[]> {
  const file = join(dir, 'song.wav');
  makeWav(file, JOB_SECONDS);
  const size = statSync(file).size;
  const { WORKERS: _none, ...defaults } = baseEnv;
  const server = await startServer(defaults, port, auth, tracksListed);
  try {
    process.stderr.write(`${uploaders.length} uploads of ${(size / 2 ** 20).toFixed(1)} MB for mastering...\n`);
    const tracks: Array<{ id: string; token: string }> = [];
    for (const uploader of uploaders) {
      const { id } = await measureUpload(port, server.pid, uploader.token, file, size);
      tracks.push({ id, token: uploader.token });
    }
    const statuses = async (): Promise<{ running: number; waiting: number; done: number; other: number }> => {
      const found = await Promise.all(
        tracks.map(async (track) => {
          const response = await fetch(`http://127.0.0.1:${port}/api/audio/track/${track.id}/status`, {
            headers: { Authorization: `Bearer ${track.token}` },
          });
          return ((await response.json()) as { status: string }).status;
        }),
      );
      return {
        running: found.filter((status) => RUNNING.includes(status)).length,
        waiting: found.filter((status) => status === 'PROCESSING').length,
        done: found.filter((status) => status === 'PREVIEW_READY').length,
        other: found.filter(
          (status) => status !== 'PROCESSING' && status !== 'PREVIEW_READY' && !RUNNING.includes(status),
        ).length,
      };
    };
    // Wait for the first job to be at work.
    for (let tries = 0; (await statuses()).running === 0; tries += 1) {
      if (tries > 300) throw new Error('no job started');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    process.stderr.write('GET /api/audio/tracks at 200 connections for 15 s while the jobs run...\n');
    const samples: Array<Awaited<ReturnType<typeof statuses>>> = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push(await statuses());
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    })();
    const cpuBefore = cpuSeconds(server.pid);
    // The scrape also starts a new event-loop delay histogram (the server's metrics reset it at each scrape).
    const metricsBefore = await scrape(port);
    const started = process.hrtime.bigint();
    const result = await measureList(port, auth);
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    const metricsAfter = await scrape(port);
    sampling = false;
    await sampler;
    const after = await statuses();
    const range = (pick: (sample: (typeof samples)[number]) => number): string => {
      const values = samples.map(pick);
      return `${Math.min(...values)}-${Math.max(...values)}`;
    };
    return [
      row(
        `the same list, while ${tracks.length} uploads are processed (WORKERS=1): requests/s`,
        rps(result.requests.average),
      ),
      row('latency p50', `${result.latency.p50} ms`),
      row('latency p99', `${result.latency.p99} ms`, '< 50 ms'),
      row('errors / non-2xx', `${result.errors} / ${result.non2xx}`, '0'),
      row(
        `jobs during the measure (${samples.length} samples, min-max): running / waiting / done`,
        `${range((s) => s.running)} / ${range((s) => s.waiting)} / ${range((s) => s.done)}`,
      ),
      row(
        'jobs at the end: running / waiting / done / other',
        `${after.running} / ${after.waiting} / ${after.done} / ${after.other}`,
      ),
      row(
        `server CPU during the measure (all threads and children, of ${cpus().length} cores)`,
        `${((cpu / wall) * 100).toFixed(0)} %`,
      ),
      row(
        'events appended during the measure',
        String(metricsAfter('kora_events_appended_total') - metricsBefore('kora_events_appended_total')),
      ),
      row(
        'server event-loop delay during the measure: p99 / max',
        `${(metricsAfter('kora_nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(0)} / ${(metricsAfter('kora_nodejs_eventloop_lag_max_seconds') * 1000).toFixed(0)} ms`,
      ),
    ];
  } finally {
    await stopServer(server);
  }
}

/** The server's metrics (the operators' token): a function from a metric's name to its value (NaN when absent). */
async function scrape(port: number): Promise<(name: string) => number> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { Authorization: `Bearer ${OPS_TOKEN}` },
  });
  const text = await response.text();
  return (name) => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    return match ? Number(match[1]) : Number.NaN;
  };
}

/** Appends finished tracks straight into the log (the projections build the read models when the server starts). */
async function seedTracks(env: NodeJS.ProcessEnv, userId: string): Promise<void> {
  const stores = await openStores(loadConfig(env));
  try {
    for (let i = 0; i < TRACKS; i += 1) await seedMasteredTrack(stores.events, userId, `Song ${i}.wav`);
  } finally {
    await closeStores(stores);
  }
}

async function waitForServer(port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      // Any answer will do: health may say degraded on a loaded machine (an ffmpeg check missing its time).
      await fetch(`http://127.0.0.1:${port}/api/health`);
      return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type StatusSocket = Awaited<ReturnType<typeof statusSocket>>;

/** A Socket.IO client on `port` that calls back on every `track.status` message saying DELETED. */
async function statusSocket(port: number, token: string) {
  const { io } = await import('socket.io-client');
  const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const waiting = new Map<string, () => void>();
  socket.on('track.status', (message: { trackId: string; status: string }) => {
    if (message.status === 'DELETED') waiting.get(message.trackId)?.();
  });
  return {
    /** Resolves true when the message for `trackId` arrives, false after 5 s without it. */
    deleted: (trackId: string): Promise<boolean> =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), 5_000);
        waiting.set(trackId, () => {
          clearTimeout(timer);
          waiting.delete(trackId);
          resolve(true);
        });
      }),
    close: () => socket.disconnect(),
  };
}

/**
 * Deletes one track and times the gap between sending the request and the `track.status` message on the owner's
 * socket: an upper bound of the time from the durable append to the message (it includes the request and the append
 * themselves). The message usually arrives before the HTTP answer. Infinity when it did not come within 5 s.
 */
async function timeDeletion(
  base: string,
  socket: StatusSocket,
  trackId: string,
  auth: Record<string, string>,
): Promise<number> {
  let arrived = Number.POSITIVE_INFINITY;
  const message = socket.deleted(trackId).then((came) => (arrived = came ? performance.now() : arrived));
  const sent = performance.now();
  const response = await fetch(`${base}/${trackId}`, { method: 'DELETE', headers: auth });
  if (!response.ok) throw new Error(`delete answered ${response.status}`);
  await message;
  return arrived - sent;
}

function percentiles(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

/**
 * The server's resident memory in MB: read from /proc where there is one, so that sampling costs the server nothing;
 * elsewhere from its /metrics.
 */
async function rssMb(port: number, pid: number | undefined): Promise<number> {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
    if (kb) return Number(kb[1]) / 1024;
  } catch {
    // no procfs: ask the server
  }
  const text = await (
    await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: `Bearer ${OPS_TOKEN}` } })
  ).text();
  const match = /^kora_process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  return match ? Number(match[1]) / 2 ** 20 : Number.NaN;
}

/**
 * One upload of `file` as a mastering track: throughput from the first byte sent to the answer, and the server's
 * memory growth (peak RSS sampled every 20 ms, minus RSS before). The caller deletes the track before the same
 * account uploads again (a second one in processing is refused).
 */
async function measureUpload(
  port: number,
  pid: number | undefined,
  token: string,
  path: string,
  size: number,
): Promise<{ id: string; mbPerSecond: number; growthMb: number }> {
  const before = await rssMb(port, pid);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssMb(port, pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const boundary = `----kora${uuidv7()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="service"\r\n\r\nAI_MASTERING\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  // A plain node:http client piping the file, so that the client's own cost stays small beside the server's.
  const started = process.hrtime.bigint();
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const call = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/audio/upload',
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': head.length + size + tail.length,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    call.on('error', reject);
    call.write(head);
    const file = createReadStream(path, { highWaterMark: 1 << 20 });
    file.on('error', reject);
    file.on('end', () => call.end(tail));
    file.pipe(call, { end: false });
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  sampling = false;
  await sampler;
  if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.text}`);
  const { id } = JSON.parse(answer.text) as { id: string };
  return { id, mbPerSecond: size / 2 ** 20 / seconds, growthMb: peak - before };
}

async function deleteTrack(port: number, token: string, id: string): Promise<void> {
  const removed = await fetch(`http://127.0.0.1:${port}/api/audio/${id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!removed.ok) throw new Error(`delete answered ${removed.status}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
