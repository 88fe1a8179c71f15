import { toAppend, trackStream, uuidv7 } from '@kora/kernel';
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { closeStores, openStores } from '../infra/infra.module';

/**
 * `npm run bench:api`: the API on its embedded defaults, as a separate server process on loopback.
 * 1. GET /api/audio/tracks (page 1, 10 per page) at 200 concurrent connections for 15 s, over an account with 500
 *    tracks: latency percentiles and requests per second.
 * 2. Socket latency: from a deletion to the `track.status` message on the owner's socket.
 * 3. Five 49 MB WAV uploads: throughput from the first byte to the answer (median), and the server's resident memory
 *    growth (sampled every 20 ms from /proc during each upload; the worst).
 */
const ROOT = join(__dirname, '..', '..', '..');
const TRACKS = 500;
const UPLOADS = 5;
/** The server's operators' token, for its /metrics. */
const OPS_TOKEN = `bench-${randomBytes(16).toString('hex')}`;

async function main(): Promise<void> {
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

    // BENCH_NODE_ARGS passes flags to the server process (for example --cpu-prof to profile it).
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const server = spawn(process.execPath, [...nodeArgs, join(ROOT, 'backend/dist/main.js')], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    try {
      await waitForServer(port);
      const auth = { Authorization: `Bearer ${token}` };
      // The projections catch up on the seeded log at start: wait until the list shows every track.
      for (let tries = 0; ; tries += 1) {
        const listed = await fetch(`http://127.0.0.1:${port}/api/audio/tracks?page=1&limit=10`, { headers: auth });
        const { totalCount } = (await listed.json()) as { totalCount: number };
        if (totalCount === TRACKS) break;
        if (tries > 300) throw new Error(`expected ${TRACKS} tracks, the list says ${totalCount}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }

      process.stderr.write('GET /api/audio/tracks at 200 connections for 15 s...\n');
      const result = await autocannon({
        url: `http://127.0.0.1:${port}/api/audio/tracks?page=1&limit=10`,
        connections: 200,
        duration: 15,
        headers: auth,
      });

      process.stderr.write('socket latency: 100 deletions, from the answer to the track.status message...\n');
      const socketLatency = await measureSocketLatency(port, token, auth);

      process.stderr.write('uploading 49 MB...\n');
      const file = join(dir, 'upload.wav');
      execFileSync('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=color=pink:amplitude=0.2:duration=290',
        '-ac',
        '2',
        '-ar',
        '44100',
        '-c:a',
        'pcm_s16le',
        file,
      ]);
      const size = statSync(file).size;
      const uploads: Array<{ mbPerSecond: number; growthMb: number }> = [];
      for (let run = 0; run < UPLOADS; run += 1) uploads.push(await measureUpload(port, server.pid, token, file, size));
      const rates = uploads.map((upload) => upload.mbPerSecond).sort((a, b) => a - b);
      const upload = {
        mbPerSecond: rates[Math.floor(rates.length / 2)]!,
        slowest: rates[0]!,
        fastest: rates[rates.length - 1]!,
        growthMb: Math.max(...uploads.map((u) => u.growthMb)),
      };

      console.log(
        `API on the embedded defaults (${cpus().length} cores, ${cpus()[0]?.model ?? ''}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})\n`,
      );
      console.log('| measure | value | target |');
      console.log('|---|---:|---:|');
      console.log(
        `| GET /api/audio/tracks, 200 connections, 15 s: requests/s | ${Math.round(result.requests.average).toLocaleString('en-US')} | - |`,
      );
      console.log(`| latency p50 | ${result.latency.p50} ms | - |`);
      console.log(`| latency p99 | ${result.latency.p99} ms | < 50 ms |`);
      console.log(`| errors / non-2xx | ${result.errors} / ${result.non2xx} | 0 |`);
      console.log(
        `| track.status on the socket, from sending the request: p50 / p99 / max | ${socketLatency.p50} / ${socketLatency.p99} / ${socketLatency.max} ms | < 200 ms |`,
      );
      console.log(
        `| upload of ${(size / 2 ** 20).toFixed(1)} MB: throughput, median of ${UPLOADS} (slowest-fastest) | ${upload.mbPerSecond.toFixed(0)} MB/s (${upload.slowest.toFixed(0)}-${upload.fastest.toFixed(0)}) | >= 100 MB/s |`,
      );
      console.log(
        `| upload: server memory growth (peak RSS - RSS before), worst of ${UPLOADS} | ${upload.growthMb.toFixed(1)} MB | < 64 MB |`,
      );
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
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
 * memory growth (peak RSS sampled every 20 ms, minus RSS before). The track is deleted afterwards, so that the next
 * upload is not refused as a second one in processing.
 */
async function measureUpload(
  port: number,
  pid: number | undefined,
  token: string,
  path: string,
  size: number,
): Promise<{ mbPerSecond: number; growthMb: number }> {
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
  const removed = await fetch(`http://127.0.0.1:${port}/api/audio/${id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!removed.ok) throw new Error(`delete answered ${removed.status}`);
  return { mbPerSecond: size / 2 ** 20 / seconds, growthMb: peak - before };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
