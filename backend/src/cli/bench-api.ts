import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { toolPath } from '@kora/audio-engine';
import { IdentityProvider, SignUpService } from '@kora/identity';
import { toAppend, uuidv7 } from '@kora/kernel';
import { trackStream } from '@kora/audio/contracts';
import autocannon from 'autocannon';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/config';
import { BuiltInIdentityProvider } from '../identity-provider/built-in-provider';
import { closeStores, openStores } from '../infra/infra.module';

/**
 * `npm run bench:api`: the API on its embedded defaults, as a separate server process on loopback.
 * 1. GET /api/audio/tracks (page 1, 10 per page) at 200 concurrent connections for 15 s, over an account with 500
 *    tracks: latency percentiles and requests per second.
 * 2. Socket latency: from a deletion to the `track.status` message on the owner's socket.
 * 3. Five 49 MB WAV uploads: throughput from the first byte to the answer (median), and the server's resident memory
 *    growth (sampled every 20 ms from /proc during each upload; the worst).
 * 4. The same list measure while jobs run: the server restarted with its default of one job at a time (WORKERS=1),
 *    20 accounts each upload a 4-minute WAV for mastering, then the list is measured as in 1 while those 20 jobs
 *    are processed or waiting; the tracks' statuses are polled once a second meanwhile, to show that they were.
 *
 * `--only list,socket,upload,jobs` runs some of them (default: all).
 */
const ROOT = join(__dirname, '..', '..', '..');
const TRACKS = 500;
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
        if (only.has('list')) {
          process.stderr.write('GET /api/audio/tracks at 200 connections for 15 s...\n');
          const result = await measureList(port, auth);
          rows.push(
            `| GET /api/audio/tracks, 200 connections, 15 s: requests/s | ${Math.round(result.requests.average).toLocaleString('en-US')} | - |`,
            `| latency p50 | ${result.latency.p50} ms | - |`,
            `| latency p99 | ${result.latency.p99} ms | < 50 ms |`,
            `| errors / non-2xx | ${result.errors} / ${result.non2xx} | 0 |`,
          );
        }
        if (only.has('socket')) {
          process.stderr.write('socket latency: 100 deletions, from the answer to the track.status message...\n');
          const socketLatency = await measureSocketLatency(port, token, auth);
          rows.push(
            `| track.status on the socket, from sending the request: p50 / p99 / max | ${socketLatency.p50} / ${socketLatency.p99} / ${socketLatency.max} ms | < 200 ms |`,
          );
        }
        if (only.has('upload')) {
          process.stderr.write('uploading 49 MB...\n');
          const file = join(dir, 'upload.wav');
          makeWav(file, 290);
          const size = statSync(file).size;
          const uploads: Array<{ mbPerSecond: number; growthMb: number }> = [];
          for (let run = 0; run < UPLOADS; run += 1) {
            const measured = await measureUpload(port, server.pid, token, file, size);
            uploads.push(measured);
            await deleteTrack(port, token, measured.id);
          }
          const rates = uploads.map((upload) => upload.mbPerSecond).sort((a, b) => a - b);
          rows.push(
            `| upload of ${(size / 2 ** 20).toFixed(1)} MB: throughput, median of ${UPLOADS} (slowest-fastest) | ${rates[Math.floor(rates.length / 2)]!.toFixed(0)} MB/s (${rates[0]!.toFixed(0)}-${rates[rates.length - 1]!.toFixed(0)}) | >= 100 MB/s |`,
            `| upload: server memory growth (peak RSS - RSS before), worst of ${UPLOADS} | ${Math.max(...uploads.map((u) => u.growthMb)).toFixed(1)} MB | < 64 MB |`,
          );
        }
      } finally {
        await stopServer(server);
      }
    }

    if (only.has('jobs')) {
      // The socket measure deleted 100 of the account's tracks.
      const left = only.has('socket') ? TRACKS - 100 : TRACKS;
      rows.push(...(await measureListWithJobs(dir, env, port, auth, left, uploaders)));
    }

    console.log(
      `API on the embedded defaults (${cpus().length} cores, ${cpus()[0]?.model ?? ''}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})\n`,
    );
    console.log('| measure | value | target |');
    console.log('|---|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
  const config = loadConfig({ ...env, PROJECTIONS: 'on', WORKERS: '0', PROCESSORS: 'off' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, pino({ level: 'warn' })), {
    logger: ['error', 'warn'],
  });
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
      `| the same list, while ${tracks.length} uploads are processed (WORKERS=1): requests/s | ${Math.round(result.requests.average).toLocaleString('en-US')} | - |`,
      `| latency p50 | ${result.latency.p50} ms | - |`,
      `| latency p99 | ${result.latency.p99} ms | < 50 ms |`,
      `| errors / non-2xx | ${result.errors} / ${result.non2xx} | 0 |`,
      `| jobs during the measure (${samples.length} samples, min-max): running / waiting / done | ${range((s) => s.running)} / ${range((s) => s.waiting)} / ${range((s) => s.done)} | - |`,
      `| jobs at the end: running / waiting / done / other | ${after.running} / ${after.waiting} / ${after.done} / ${after.other} | - |`,
      `| server CPU during the measure (all threads and children, of ${cpus().length} cores) | ${((cpu / wall) * 100).toFixed(0)} % | - |`,
      `| events appended during the measure | ${metricsAfter('kora_events_appended_total') - metricsBefore('kora_events_appended_total')} | - |`,
      `| server event-loop delay during the measure: p99 / max | ${(metricsAfter('kora_nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(0)} / ${(metricsAfter('kora_nodejs_eventloop_lag_max_seconds') * 1000).toFixed(0)} ms | - |`,
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

/** CPU seconds of a process, its threads and its waited-for children, from /proc (NaN where there is none). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime: fields 14-17 of the whole line, 12-15 after the command.
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    return ticks / 100;
  } catch {
    return Number.NaN;
  }
}

/** Appends finished tracks straight into the log (the projections build the read models when the server starts). */
async function seedTracks(env: NodeJS.ProcessEnv, userId: string): Promise<void> {
  const stores = await openStores(loadConfig(env));
  try {
    const context = {
      userId,
      correlationId: 'bench',
      causationId: 'bench',
      clock: { now: () => new Date() },
      ids: { newId: uuidv7 },
    };
    for (let i = 0; i < TRACKS; i += 1) {
      const trackId = uuidv7();
      const jobId = uuidv7();
      await stores.events.append(
        trackStream(trackId),
        toAppend(
          [
            {
              type: 'TrackUploaded',
              data: {
                trackId,
                ownerId: userId,
                service: 'AI_MASTERING',
                filename: `Song ${i}.wav`,
                format: 'wav',
                contentType: 'audio/wav',
                fileSize: 5_000_000,
                durationSec: 180,
                sampleRate: 44_100,
                channels: 2,
                isVideo: false,
                isDemo: false,
                originalKey: `tracks/${trackId}/original`,
              },
            },
            {
              type: 'ProcessingRequested',
              data: { jobId, service: 'AI_MASTERING', options: { preset: null, mode: null } },
            },
            {
              type: 'PreviewReady',
              data: {
                jobId,
                service: 'AI_MASTERING',
                files: { preview: `tracks/${trackId}/preview` },
                processingSeconds: 5,
                durationSec: 180,
                before: null,
                after: null,
              },
            },
          ],
          context,
        ),
        'no_stream',
      );
    }
  } finally {
    await closeStores(stores);
  }
}

async function waitForServer(port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Deletes tracks one by one and times, for each, the gap between sending the request and the `track.status`
 * message on the owner's socket: an upper bound of the time from the durable append to the message (it includes
 * the request and the append themselves). The message usually arrives before the HTTP answer.
 */
async function measureSocketLatency(
  port: number,
  token: string,
  auth: Record<string, string>,
): Promise<{ p50: number; p99: number; max: number }> {
  const { io } = await import('socket.io-client');
  const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const arrived = new Map<string, number>();
  socket.on('track.status', (message: { trackId: string; status: string }) => {
    if (message.status === 'DELETED') arrived.set(message.trackId, Date.now());
  });
  const listed = (await (
    await fetch(`http://127.0.0.1:${port}/api/audio/tracks?page=1&limit=100`, { headers: auth })
  ).json()) as { tracks: Array<{ id: string }> };
  const gaps: number[] = [];
  for (const track of listed.tracks) {
    const sent = Date.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/audio/${track.id}`, { method: 'DELETE', headers: auth });
    if (!response.ok) throw new Error(`delete answered ${response.status}`);
    const deadline = Date.now() + 5_000;
    while (!arrived.has(track.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
    gaps.push((arrived.get(track.id) ?? Number.POSITIVE_INFINITY) - sent);
  }
  socket.disconnect();
  gaps.sort((a, b) => a - b);
  const at = (q: number): number => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: gaps[gaps.length - 1]! };
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
