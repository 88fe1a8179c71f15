/**
 * `npm run test:faults`: faults thrown at a REAL server process on loopback (the built `backend/dist/main.js`, as
 * `npm start` runs it), then the checks that it survived: oversize and malformed uploads on every upload route, the
 * two field orders, a disk that fills during an upload and during a job (a 24 MB tmpfs), kill -9 during an upload, a
 * job, event appends and a projection batch, each followed by a restart. At the end: the event log has every
 * acknowledged write once, every read model equals its rebuild, and no orphan file is left. Prints a table.
 */
import { toAppend, uuidv7 } from '@kora/kernel';
import { allProjections } from '@kora/projections';
import { ProjectionRunner } from '@kora/kernel';
import { DISCARD_LIMITS } from '@kora/kernel/nest';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/config';
import { closeStores, openStores } from '../../src/infra/infra.module';
import { endlessUpload } from '../support/endless-upload';
import { makeMedia } from '../support/media';
import { run, type Running, userToken, waitFor } from '../support/server-process';
import { tempDir } from '../support/temp';

const MB = 1024 * 1024;
const OPS_TOKEN = 'faults-ops-token-0123456789abcdef';

// --- the table ---------------------------------------------------------------------------------------------------

interface Row {
  tried: number;
  survived: number;
  lost: number;
  note: string;
}
const table = new Map<string, Row>();
function record(fault: string, survived: boolean, lost = 0, note = ''): void {
  const row = table.get(fault) ?? { tried: 0, survived: 0, lost: 0, note: '' };
  row.tried += 1;
  if (survived) row.survived += 1;
  row.lost += lost;
  if (note && !row.note.includes(note)) row.note = row.note ? `${row.note}; ${note}` : note;
  table.set(fault, row);
}
function printTable(): void {
  const lines = [
    '| fault | tried | survived | lost |',
    '|---|---|---|---|',
    ...[...table].map(
      ([fault, row]) =>
        `| ${fault}${row.note ? ` (${row.note})` : ''} | ${row.tried} | ${row.survived} | ${row.lost} |`,
    ),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

/**
 * A free port below the ephemeral range: the suite opens thousands of client connections, and one of them could hold
 * an ephemeral port the restarted server needs.
 */
async function listenablePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

// --- a server on a data directory, restartable ---------------------------------------------------------------------

class Server {
  running: Running | null = null;
  readonly port: Promise<number>;
  readonly env: Promise<Record<string, string>>;
  constructor(
    readonly dataDir: string,
    readonly tmp: string,
    extra: Record<string, string> = {},
  ) {
    this.port = listenablePort();
    this.env = this.port.then((port) => ({
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Scratch folders (jobs) in a directory of this suite's own, so that the orphan check sees only ours.
      TMPDIR: tmp,
      LOG_LEVEL: 'info',
      DEMO_TRACKS: 'off',
      PURGE_INTERVAL_MINUTES: '0',
      OPS_TOKEN,
      JOB_LEASE_MS: '2000',
      SWEEP_MIN_AGE_SECONDS: '1',
      ...extra,
    }));
  }
  async url(): Promise<string> {
    return `http://127.0.0.1:${await this.port}`;
  }
  async start(extra: Record<string, string> = {}): Promise<void> {
    if (this.alive()) throw new Error('the previous server still runs');
    const env = { ...(await this.env), ...extra };
    this.running = run(env);
    const running = this.running;
    await waitFor(() => running.output().includes('Kora is listening') || running.child.exitCode !== null, 30_000);
    if (running.child.exitCode !== null) throw new Error(`server did not start:\n${running.output()}`);
  }
  alive(): boolean {
    return this.running !== null && this.running.child.exitCode === null && this.running.child.signalCode === null;
  }
  /** FAULTS_LOG=<dir> keeps every server run's output there. */
  private keep(): void {
    if (!process.env.FAULTS_LOG || !this.running) return;
    mkdirSync(process.env.FAULTS_LOG, { recursive: true });
    writeFileSync(join(process.env.FAULTS_LOG, `server-${this.running.child.pid}.log`), this.running.output());
  }
  async kill(): Promise<void> {
    if (!this.running) return;
    this.running.child.kill('SIGKILL');
    await this.running.exited;
    this.keep();
  }
  async stop(): Promise<void> {
    if (!this.running || !this.alive()) return;
    this.running.child.kill('SIGTERM');
    await this.running.exited;
    this.keep();
  }
  /** Alive and answering its health check (200 or 503 with a report: a low disk is an answer, a crash is not). */
  async healthy(): Promise<boolean> {
    if (!this.alive()) return false;
    try {
      const response = await fetch(`${await this.url()}/api/health`);
      const body = (await response.json()) as { status?: string };
      return body.status === 'ok' || (response.status === 503 && body.status === 'degraded');
    } catch {
      return false;
    }
  }
}

// --- multipart bodies, streamed ----------------------------------------------------------------------------------

type Part = { field: string; value: string } | { file: string; filename: string; size?: number; path?: string };

/** A multipart body, generated as it is sent: zero bytes for `size`, a real file for `path`. */
function multipartBody(boundary: string, parts: Part[], truncateAt?: number): Readable {
  async function* generate(): AsyncGenerator<Buffer> {
    let sent = 0;
    const emit = function* (chunk: Buffer): Generator<Buffer> {
      if (truncateAt !== undefined && sent + chunk.length > truncateAt) {
        yield chunk.subarray(0, Math.max(0, truncateAt - sent));
        sent = truncateAt;
        return;
      }
      sent += chunk.length;
      yield chunk;
    };
    for (const part of parts) {
      if ('field' in part) {
        yield* emit(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`),
        );
      } else {
        yield* emit(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${part.file}"; filename="${part.filename}"\r\n` +
              `Content-Type: audio/wav\r\n\r\n`,
          ),
        );
        if (part.path) yield* emit(readFileSync(part.path));
        else {
          const chunk = Buffer.alloc(MB);
          for (let left = part.size ?? 0; left > 0; left -= MB)
            yield* emit(left >= MB ? chunk : chunk.subarray(0, left));
        }
        yield* emit(Buffer.from('\r\n'));
      }
      if (truncateAt !== undefined && sent >= truncateAt) return;
    }
    yield* emit(Buffer.from(`--${boundary}--\r\n`));
  }
  return Readable.from(generate());
}

interface Answer {
  status: number;
  body: { code?: string; id?: string; [key: string]: unknown };
}

function parseBody(text: string): Answer['body'] {
  try {
    return JSON.parse(text) as Answer['body'];
  } catch {
    return { text };
  }
}

/** Sends a request with a streamed body; status 0 when the connection ended without an answer. */
function send(
  url: string,
  path: string,
  token: string,
  body: Readable | null,
  contentType: string,
  options: { abortAfterBytes?: number; method?: string } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const target = new URL(path, url);
    const req = httpRequest(
      target,
      {
        method: options.method ?? 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: parseBody(text) }));
        response.on('error', () => resolve({ status: response.statusCode ?? 0, body: {} }));
      },
    );
    req.on('error', () => resolve({ status: 0, body: {} }));
    if (!body) {
      req.end();
      return;
    }
    let written = 0;
    body.on('data', (chunk: Buffer) => {
      written += chunk.length;
      if (options.abortAfterBytes !== undefined && written >= options.abortAfterBytes) {
        body.destroy();
        req.destroy();
        resolve({ status: 0, body: {} });
        return;
      }
      if (!req.write(chunk)) {
        body.pause();
        req.once('drain', () => body.resume());
      }
    });
    body.on('end', () => req.end());
    req.on('close', () => body.destroy());
  });
}

const BOUNDARY = 'kora-faults-boundary';
const FORM = `multipart/form-data; boundary=${BOUNDARY}`;
function upload(
  url: string,
  path: string,
  token: string,
  parts: Part[],
  options: { truncateAt?: number; abortAfterBytes?: number } = {},
): Promise<Answer> {
  return send(url, path, token, multipartBody(BOUNDARY, parts, options.truncateAt), FORM, options);
}

async function json(
  url: string,
  path: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(new URL(path, url), {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: parseBody(await response.text()) };
}

// --- what must never be left behind -------------------------------------------------------------------------------

function walk(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? [path, ...walk(path)] : [path];
  });
}

/** `.partial-` files under the blob store: a write that did not finish. */
function halfWritten(dataDir: string): string[] {
  return walk(join(dataDir, 'blobs'))
    .filter((path) => path.includes('.partial-'))
    .map((path) => relative(dataDir, path));
}

/** Empty folders below the blob store's category folders (`tracks/`, `mixes/`): left for the sweep to remove. */
function emptyFolders(dataDir: string): string[] {
  const root = join(dataDir, 'blobs');
  return walk(root)
    .filter(
      (path) => relative(root, path).includes('/') && statSync(path).isDirectory() && readdirSync(path).length === 0,
    )
    .map((path) => relative(dataDir, path));
}

/** Scratch folders a dead process left in the temp dir. */
function scratchLeft(tmp: string): string[] {
  return existsSync(tmp) ? readdirSync(tmp).filter((name) => /^kora-(job|demo|blob)-/.test(name)) : [];
}

const UPLOAD_ROUTES = (sessionId: string) =>
  [
    {
      name: 'tracks AI_MASTERING',
      path: '/api/audio/upload',
      field: 'file',
      fields: { service: 'AI_MASTERING' },
      over: 61 * MB,
    },
    {
      name: 'tracks STEM_SEPARATION',
      path: '/api/audio/upload',
      field: 'file',
      fields: { service: 'STEM_SEPARATION', mode: 'vocals' },
      over: 61 * MB,
    },
    {
      name: 'tracks AUDIO_ENHANCEMENT',
      path: '/api/audio/upload',
      field: 'file',
      fields: { service: 'AUDIO_ENHANCEMENT', preset: 'audio' },
      over: 101 * MB,
    },
    {
      name: 'mixing one track',
      path: `/api/mixing/sessions/${sessionId}/tracks`,
      field: 'file',
      fields: {},
      over: 101 * MB,
    },
    {
      name: 'mixing batch',
      path: `/api/mixing/sessions/${sessionId}/tracks/batch`,
      field: 'files',
      fields: {},
      over: 101 * MB,
    },
  ] as const;

const fieldParts = (fields: Record<string, string>): Part[] =>
  Object.entries(fields).map(([field, value]) => ({ field, value }));

// --- the suite ----------------------------------------------------------------------------------------------------

describe('faults against a real server process', () => {
  // Made in beforeAll, so that a run that filters these tests out leaves nothing behind.
  let dir: ReturnType<typeof tempDir> | null = null;
  let dataDir = '';
  let tmp = '';
  let server!: Server;
  let url = '';
  let token = '';
  let otherToken = '';
  let deactivatedToken = '';
  let wav = '';
  /** Writes the server acknowledged (2xx): each must be there after every crash, once. */
  const acknowledged = { sessions: new Set<string>(), tracks: new Set<string>() };

  beforeAll(async () => {
    dir = tempDir('kora-faults-');
    dataDir = join(dir.path, 'data');
    tmp = join(dir.path, 'tmp');
    mkdirSync(join(dir.path, 'media'));
    mkdirSync(tmp);
    server = new Server(dataDir, tmp);
    wav = makeMedia(join(dir.path, 'media')).music(12, 'music.wav'); // 2 MB: above mastering's 1 MB minimum
    token = userToken(await server.env, 'faults@example.sn');
    otherToken = userToken(await server.env, 'faults-logout@example.sn');
    deactivatedToken = userToken(await server.env, 'faults-deactivate@example.sn');
    await server.start();
    url = await server.url();
  }, 60_000);

  afterAll(async () => {
    await server?.kill();
    dir?.cleanup();
  }, 60_000);

  const newSession = async (name = 'faults'): Promise<string> => {
    const created = await json(url, '/api/mixing/sessions/create', token, { method: 'POST', body: { name } });
    expect(created.status).toBe(201);
    const id = (created.body.session as { id: string }).id;
    acknowledged.sessions.add(id);
    return id;
  };

  it('answers oversize uploads 413 UPLOAD.FILE_SIZE_MAX on every route, fields before or after the file', async () => {
    const sessionId = await newSession();
    for (const route of UPLOAD_ROUTES(sessionId)) {
      for (const order of ['fields first', 'file first'] as const) {
        const file: Part = { file: route.field, filename: 'big.wav', size: route.over };
        const parts =
          order === 'fields first' ? [...fieldParts(route.fields), file] : [file, ...fieldParts(route.fields)];
        const answer = await upload(url, route.path, token, parts);
        const ok = answer.status === 413 && answer.body.code === 'UPLOAD.FILE_SIZE_MAX' && (await server.healthy());
        record(`oversize upload, ${order}`, ok, 0, '');
        expect({ route: route.name, order, status: answer.status, code: answer.body.code }).toEqual({
          route: route.name,
          order,
          status: 413,
          code: 'UPLOAD.FILE_SIZE_MAX',
        });
      }
    }
    expect(halfWritten(dataDir)).toEqual([]);
  }, 120_000);

  // A client that keeps sending after its refusal: answered at once, then the connection is closed within the bounds
  // (a few MB read, a second's grace, 5 s at most), on an upload route of each module, fast and slow.
  it('closes the connection of a client that sends on after its 413, and keeps serving', async () => {
    const sessionId = await newSession();
    const cases = [
      ['/api/audio/upload', { service: 'AI_MASTERING' }, {}],
      [`/api/mixing/sessions/${sessionId}/tracks/batch`, {}, {}],
      // 16 KB every 50 ms once answered: under the byte bound in 5 s, so the time bound ends it.
      ['/api/audio/upload', { service: 'STEM_SEPARATION' }, { afterAnswer: { chunk: 16 * 1024, everyMs: 50 } }],
    ] as const;
    for (const [path, fields, pace] of cases) {
      const sent = await endlessUpload(url, path, token, fields, { ...pace, giveUpMs: 120_000 });
      const ok =
        sent.status === 413 &&
        sent.headers.connection === 'close' &&
        sent.closedAfterAnswerMs >= 0 &&
        sent.closedAfterAnswerMs < DISCARD_LIMITS.ms + 1_000 &&
        (await server.healthy());
      record('client sending on after its 413 (endless body, fast or slow)', ok);
      expect({ path, status: sent.status, connection: sent.headers.connection, ok }).toEqual({
        path,
        status: 413,
        connection: 'close',
        ok: true,
      });
    }
    await waitFor(() => halfWritten(dataDir).length === 0, 5_000).catch(() => undefined);
    expect(halfWritten(dataDir)).toEqual([]);
  }, 180_000);

  it('answers malformed uploads with a 4xx and keeps serving', async () => {
    const sessionId = await newSession();
    for (const route of UPLOAD_ROUTES(sessionId)) {
      const valid: Part[] = [...fieldParts(route.fields), { file: route.field, filename: 'a.wav', size: 2 * MB }];
      const cases: Array<[string, () => Promise<Answer>]> = [
        [
          'not multipart',
          () => send(url, route.path, token, Readable.from([Buffer.from('{"a":1}')]), 'application/json'),
        ],
        ['no boundary', () => send(url, route.path, token, Readable.from([Buffer.from('x')]), 'multipart/form-data')],
        ['cut off mid-file', () => upload(url, route.path, token, valid, { truncateAt: MB })],
        ['no file', () => upload(url, route.path, token, fieldParts({ ...route.fields, other: 'x' }))],
        ['not audio', () => upload(url, route.path, token, valid)],
        [
          'prototype field names',
          () =>
            upload(url, route.path, token, [
              { field: '__proto__', value: 'x' },
              { field: 'constructor', value: 'x' },
              ...valid,
            ]),
        ],
      ];
      for (const [name, attempt] of cases) {
        const answer = await attempt();
        const ok = answer.status >= 400 && answer.status < 500 && (await server.healthy());
        record('malformed upload', ok);
        expect({ route: route.name, name, ok, status: answer.status }).toMatchObject({ ok: true });
      }
      // The client goes away mid-file.
      await upload(url, route.path, token, valid, { abortAfterBytes: MB });
      await new Promise((resolve) => setTimeout(resolve, 200));
      record('client gone mid-upload', await server.healthy());
      expect(await server.healthy()).toBe(true);
      // The same in a file sent under a name the route does not take (read and dropped): its stream ended with an
      // error nothing listened to, which ended the process.
      const stray: Part[] = [...fieldParts(route.fields), { file: 'stray', filename: 'a.wav', size: 2 * MB }];
      await upload(url, route.path, token, stray, { abortAfterBytes: MB });
      await new Promise((resolve) => setTimeout(resolve, 200));
      record('client gone mid-file under a name the route does not take', await server.healthy());
      expect(await server.healthy()).toBe(true);
    }
    await waitFor(() => halfWritten(dataDir).length === 0, 5_000).catch(() => undefined);
    expect(halfWritten(dataDir)).toEqual([]);
  }, 120_000);

  it('answers unknown stream names, prototype names included, 404 and not 500', async () => {
    const sessionId = await newSession();
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'nothing']) {
      const answer = await json(url, `/api/mixing/sessions/${sessionId}/stream/${type}`, token);
      record('prototype key in a stream path', answer.status === 404 && (await server.healthy()));
      expect({ type, status: answer.status }).toEqual({ type, status: 404 });
    }
  });

  // Token revocation (logout, deactivation): the two checks, on HTTP and at the Socket.IO handshake, then again after
  // kill -9.
  it('refuses a token used after logout or deactivation with 401, on HTTP and at the socket handshake, across a kill -9', async () => {
    for (const held of [otherToken, deactivatedToken])
      expect((await json(url, '/api/user/profile', held)).status).toBe(200);
    const logout = await json(url, '/api/auth/logout', otherToken, { method: 'POST' });
    expect(logout.status).toBe(200);
    const deactivation = await json(url, '/api/user/account/deactivate', deactivatedToken, {
      method: 'POST',
      body: { confirmationText: 'DELETE' },
    });
    expect(deactivation.status).toBe(200);
    const refusedHere = async (held: string): Promise<{ http: number; socket: string }> => {
      const http = (await json(url, '/api/user/profile', held)).status;
      const socket = io(url, { auth: { token: held }, transports: ['websocket'], reconnection: false });
      const outcome = await new Promise<string>((resolve) => {
        socket.once('connect', () => resolve('connected'));
        socket.once('connect_error', () => resolve('refused'));
        socket.once('disconnect', () => resolve('refused'));
      });
      // A server may accept the handshake then end it at once: wait a moment for that.
      const settled =
        outcome === 'connected'
          ? await new Promise<string>((resolve) => {
              socket.once('disconnect', () => resolve('refused'));
              setTimeout(() => resolve('connected'), 500);
            })
          : outcome;
      socket.disconnect();
      return { http, socket: settled };
    };
    const cases = [
      ['logout', otherToken],
      ['deactivation', deactivatedToken],
    ] as const;
    for (const [after, held] of cases) {
      const refused = await refusedHere(held);
      record(
        `token used after ${after}`,
        refused.http === 401 && refused.socket === 'refused' && (await server.healthy()),
      );
      expect({ after, ...refused }).toEqual({ after, http: 401, socket: 'refused' });
    }
    await server.kill();
    await server.start();
    for (const [after, held] of cases) {
      const refused = await refusedHere(held);
      record(
        `token used after ${after}, after kill -9`,
        refused.http === 401 && refused.socket === 'refused' && (await server.healthy()),
      );
      expect({ after, ...refused }).toEqual({ after, http: 401, socket: 'refused' });
    }
  }, 60_000);

  it('keeps every acknowledged write through kill -9 during appends, uploads and jobs', async () => {
    // During event appends: four clients create sessions as fast as they can; the server dies under them.
    for (let round = 0; round < 2; round += 1) {
      let stop = false;
      const clients = Array.from({ length: 4 }, async () => {
        while (!stop) {
          const answer = await json(url, '/api/mixing/sessions/create', token, {
            method: 'POST',
            body: { name: `burst ${round}` },
          }).catch(() => null);
          if (answer?.status === 201) acknowledged.sessions.add((answer.body.session as { id: string }).id);
          if (!answer || answer.status === 0) break;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 400 + round * 300));
      await server.kill();
      stop = true;
      await Promise.all(clients);
      await server.start();
      const missing = await missingSessions();
      record('kill -9 during event appends', await server.healthy(), missing.length);
      expect(missing).toEqual([]);
    }

    // During an upload: half the file is on disk when the server dies.
    const partialUpload = upload(url, '/api/audio/upload', token, [
      { field: 'service', value: 'AUDIO_ENHANCEMENT' },
      { file: 'file', filename: 'half.wav', size: 60 * MB },
    ]);
    await waitFor(
      () => walk(join(dataDir, 'blobs')).some((path) => path.includes('.partial-') && statSync(path).size > 5 * MB),
      10_000,
    );
    await server.kill();
    await partialUpload;
    // And an upload killed after its file landed but before its event: planted, as its timing cannot be hit from outside.
    const planted = join(dataDir, 'blobs', 'tracks', uuidv7());
    mkdirSync(planted, { recursive: true });
    writeFileSync(join(planted, 'original'), Buffer.alloc(1024));
    writeFileSync(join(planted, 'original.type'), 'application/octet-stream');
    const past = new Date(Date.now() - 10_000);
    for (const path of [join(planted, 'original'), join(planted, 'original.type'), planted])
      utimesSync(path, past, past);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // older than SWEEP_MIN_AGE_SECONDS
    await server.start();
    await waitFor(
      () =>
        server.running!.output().includes('orphans swept') && halfWritten(dataDir).length === 0 && !existsSync(planted),
      10_000,
    ).catch(() => undefined);
    const left = [...halfWritten(dataDir), ...(existsSync(planted) ? [relative(dataDir, planted)] : [])];
    record(
      'kill -9 during an upload',
      (await server.healthy()) && left.length === 0,
      0,
      'partial and unrecorded file swept at restart',
    );
    expect(left).toEqual([]);
    expect(server.running!.output()).toContain('orphans swept');

    // During a job: the engine is working on a track when the server dies; the job is taken again after its lease.
    const uploaded = await upload(url, '/api/audio/upload', token, [
      { field: 'service', value: 'AI_MASTERING' },
      { file: 'file', filename: 'music.wav', path: wav },
    ]);
    expect(uploaded.status).toBe(201);
    const trackId = uploaded.body.id!;
    acknowledged.tracks.add(trackId);
    await waitFor(() => scratchLeft(tmp).length > 0, 15_000);
    await server.kill();
    expect(scratchLeft(tmp).length).toBeGreaterThan(0);
    await server.start();
    await waitFor(async () => {
      const status = await json(url, `/api/audio/track/${trackId}/status`, token);
      return status.body.status === 'PREVIEW_READY' || status.body.status === 'FAILED';
    }, 60_000);
    const final = await json(url, `/api/audio/track/${trackId}/status`, token);
    await waitFor(() => scratchLeft(tmp).length === 0, 10_000).catch(() => undefined);
    record(
      'kill -9 during a job',
      (await server.healthy()) && final.body.status === 'PREVIEW_READY' && scratchLeft(tmp).length === 0,
      final.body.status === 'PREVIEW_READY' ? 0 : 1,
      'job taken again after its lease; scratch folder swept',
    );
    expect(final.body.status).toBe('PREVIEW_READY');
    expect(scratchLeft(tmp)).toEqual([]);
  }, 150_000);

  it('goes on with a resumable upload killed in its middle from the bytes on disk, and counts it once', async () => {
    const song = readFileSync(makeMedia(join(dir!.path, 'media')).music(60, 'resumable.wav')); // 10 MB
    const tus = { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' };
    const encode = (value: string) => Buffer.from(value).toString('base64');
    const metadata = `purpose ${encode('track')},service ${encode('AI_MASTERING')},filename ${encode('resumable.wav')}`;
    const created = await fetch(new URL('/api/uploads', url), {
      method: 'POST',
      headers: { ...tus, 'Upload-Length': String(song.length), 'Upload-Metadata': metadata },
    });
    expect(created.status).toBe(201);
    const path = created.headers.get('location')!;
    const id = path.split('/').pop()!;
    const part = join(dataDir, 'uploads', `${id}.part`);
    // 4 MB sent of 10, the connection still open, and the server dies.
    const patch = httpRequest(new URL(path, url), {
      method: 'PATCH',
      headers: {
        ...tus,
        'Content-Type': 'application/offset+octet-stream',
        'Upload-Offset': '0',
        'Content-Length': String(song.length),
      },
    });
    patch.on('error', () => undefined);
    patch.write(song.subarray(0, 4 * MB));
    await waitFor(() => existsSync(part) && statSync(part).size >= 4 * MB, 10_000);
    await server.kill();
    patch.destroy();
    await server.start();
    // The bytes on disk are the offset; the rest goes on from there, and the job takes the whole file once.
    const head = await fetch(new URL(path, url), { method: 'HEAD', headers: tus });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(statSync(part).size);
    expect(offset).toBeGreaterThanOrEqual(4 * MB);
    const rest = await fetch(new URL(path, url), {
      method: 'PATCH',
      headers: { ...tus, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) },
      body: song.subarray(offset),
    });
    expect(rest.status).toBe(204);
    const job = await json(url, '/api/audio/upload', token, {
      method: 'POST',
      body: { upload: id, service: 'AI_MASTERING' },
    });
    expect(job.status).toBe(201);
    acknowledged.tracks.add(job.body.id!);
    const stored = readFileSync(join(dataDir, 'blobs', 'tracks', job.body.id!, 'original'));
    expect(stored.equals(song)).toBe(true);
    const twice = await json(url, '/api/audio/upload', token, {
      method: 'POST',
      body: { upload: id, service: 'AI_MASTERING' },
    });
    // Used once: nothing of it is left to make a second job from (409 first: this account's mastering runs).
    expect(twice.status).not.toBe(201);
    expect(readdirSync(join(dataDir, 'uploads')).filter((name) => name.startsWith(id))).toEqual([]);
    record(
      'kill -9 during a resumable upload',
      await server.healthy(),
      0,
      `went on from ${(offset / MB).toFixed(1)} MB of 10`,
    );
  }, 90_000);

  it('catches up after kill -9 in the middle of a projection batch', async () => {
    const userId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    // Killed while the runner works through a backlog (its loops start with `stores open`), three times, each on a
    // backlog of its own: the one before is caught up once the server has restarted and answered for it.
    let midBatch = 0;
    for (const delay of [0, 0, 2]) {
      await server.stop();
      const end = await appendBacklog(userId);
      const running = run(await server.env);
      server.running = running;
      // Killed once the runner has moved the checkpoint and before it reaches the backlog's end, watched in the
      // database itself (the logs are written asynchronously, too late to aim by). The backlog ends with an event the
      // projection handles, so its checkpoint stops there at the latest (later events of other types, such as a job
      // taken again after its lease, may move it lazily).
      const db = new Database(join(dataDir, 'kora.db'), { readonly: true });
      const position = (): number =>
        (
          db.prepare("SELECT position FROM projection_checkpoints WHERE name = 'mix-tracks'").get() as
            { position: number } | undefined
        )?.position ?? 0;
      const from = position();
      const deadline = Date.now() + 30_000;
      while (running.child.exitCode === null && Date.now() < deadline) {
        const now = position();
        if (now > from && now < end) {
          await new Promise((resolve) => setTimeout(resolve, delay));
          break;
        }
        if (now >= end) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      db.close();
      await server.kill();
      const after = await openStores(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
      if (((await after.reads.getCheckpoint('mix-tracks'))?.position ?? 0) < end) midBatch += 1;
      await closeStores(after);
      await server.start();
      const missing = await missingSessions();
      record(
        'kill -9 during a projection batch',
        (await server.healthy()) && missing.length === 0,
        missing.length,
        `${midBatch} of the kills landed while the runner was catching up`,
      );
      expect(missing).toEqual([]);
    }
  }, 120_000);

  it('leaves one copy of every event, read models equal to a rebuild, and no orphan file', async () => {
    await waitFor(() => halfWritten(dataDir).length === 0 && scratchLeft(tmp).length === 0, 5_000).catch(
      () => undefined,
    );
    await waitFor(() => emptyFolders(dataDir).length === 0, 5_000).catch(() => undefined);
    const orphans = [...halfWritten(dataDir), ...emptyFolders(dataDir), ...scratchLeft(tmp)];
    await server.stop();
    const stores = await openStores(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    try {
      const all = (await stores.events.readAll({ after: 0, maxCount: 10_000_000 })).events;
      const ids = new Set(all.map((event) => event.id));
      const revisions = new Map<string, number>();
      let gaps = 0;
      for (const event of all) {
        if (event.revision !== (revisions.get(event.streamName) ?? -1) + 1) gaps += 1;
        revisions.set(event.streamName, event.revision);
      }
      const duplicates = all.length - ids.size;
      const lost =
        [...acknowledged.sessions].filter((id) => !revisions.has(`mix-${id}`)).length +
        [...acknowledged.tracks].filter((id) => !revisions.has(`track-${id}`)).length;
      record('event log after every crash', duplicates === 0 && gaps === 0 && lost === 0, lost, `${all.length} events`);
      expect({ duplicates, gaps, lost }).toEqual({ duplicates: 0, gaps: 0, lost: 0 });

      const runner = new ProjectionRunner(stores.events, stores.reads, allProjections);
      let differing = 0;
      for (const projection of allProjections) {
        await runner.catchUp(projection.name);
        const live = await stores.reads.collection(projection.collection).find({}, { sort: { _id: 1 } });
        await runner.rebuild(projection.name);
        const rebuilt = await stores.reads.collection(projection.collection).find({}, { sort: { _id: 1 } });
        if (JSON.stringify(live) !== JSON.stringify(rebuilt)) differing += 1;
        expect({ projection: projection.name, rebuilt }).toEqual({ projection: projection.name, rebuilt: live });
      }
      record('read models equal a rebuild', differing === 0, differing, `${allProjections.length} read models`);

      // Every blob folder belongs to a recorded track or session.
      const unowned = [
        ...readdirSafe(join(dataDir, 'blobs', 'tracks')).filter((id) => !revisions.has(`track-${id}`)),
        ...readdirSafe(join(dataDir, 'blobs', 'mixes')).filter((id) => !revisions.has(`mix-${id}`)),
      ];
      record('orphan files after restarts', orphans.length + unowned.length === 0, 0);
      expect([...orphans, ...unowned]).toEqual([]);
    } finally {
      await closeStores(stores);
    }
  }, 120_000);

  /**
   * A backlog the projections have not seen, appended straight to the log while the server is down: 200 sessions of
   * 100 tracks each, 20,200 events and 20,000 documents for the mix-tracks projection to write. Returns the position
   * of its last event.
   */
  async function appendBacklog(userId: string): Promise<number> {
    const stores = await openStores(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    try {
      const template = (await stores.events.readAll({ after: 0, maxCount: 100_000, types: ['MixSessionCreated'] }))
        .events[0]!;
      const context = {
        clock: { now: () => new Date() },
        ids: { newId: uuidv7 },
        correlationId: 'faults',
        causationId: 'faults',
        userId,
      };
      for (let index = 0; index < 200; index += 1) {
        const sessionId = uuidv7();
        const created = { ...(template.data as Record<string, unknown>), sessionId, name: `backlog ${index}` };
        const tracks = Array.from({ length: 100 }, (_, number) => {
          const trackId = uuidv7();
          return {
            type: 'MixTrackAdded',
            data: {
              trackId,
              filename: `track ${number}.wav`,
              fileKey: `mixes/${sessionId}/${trackId}/original`,
              fileSize: 2 * MB,
              durationSec: 12,
              sampleRate: 44_100,
              channels: 2,
              settings: {
                instrumentGroup: 'OTHER',
                presenceSetting: 'NORMAL',
                panPreference: 'NO_PREFERENCE',
                reverbPreference: 'NONE',
              },
            },
          };
        });
        await stores.events.append(
          `mix-${sessionId}`,
          toAppend([{ type: 'MixSessionCreated', data: created }, ...tracks], context as never),
          'no_stream',
        );
        acknowledged.sessions.add(sessionId);
      }
      return await stores.events.headPosition();
    } finally {
      await closeStores(stores);
    }
  }

  async function missingSessions(): Promise<string[]> {
    const missing: string[] = [];
    for (const id of acknowledged.sessions) {
      const answer = await json(url, `/api/mixing/sessions/${id}`, token);
      if (answer.status !== 200) missing.push(id);
    }
    return missing;
  }
});

function readdirSafe(directory: string): string[] {
  return existsSync(directory) ? readdirSync(directory) : [];
}

// --- a disk that fills ---------------------------------------------------------------------------------------------

/**
 * Why a 24 MB tmpfs cannot be mounted here (not root, a container that forbids it), or null when it can: probed as the
 * file loads, with a mount that is undone at once, because a Jest test cannot skip itself once it runs.
 */
function tmpfsRefused(): string | null {
  const probe = tempDir('kora-faults-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe.path], { stdio: 'pipe' });
    execFileSync('umount', [probe.path], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error).trim();
  } finally {
    probe.cleanup();
  }
}
const cannotMount = tmpfsRefused();
/** The full-disk tests, reported as skipped where no tmpfs can be mounted (their hooks then do not run). */
const itOnTmpfs = cannotMount === null ? it : it.skip;

// Once both parts have run, whichever did.
afterAll(() => {
  if (cannotMount !== null) {
    process.stdout.write(`\nSKIPPED the full-disk faults: cannot mount a 24 MB tmpfs here (${cannotMount})\n`);
  }
  printTable();
});

describe('a disk that fills', () => {
  let dir: ReturnType<typeof tempDir> | null = null;
  let dataDir = '';
  let mounted = false;
  let server!: Server;
  let url = '';
  let token = '';
  let wav = '';
  const ballast = (): string => join(dataDir, 'ballast');
  /** Fills the disk until `leaveMb` remain. */
  const fill = (leaveMb: number): void => {
    const { bavail, bsize } = statfsSync(dataDir);
    const size = Math.max(0, bavail * bsize - leaveMb * MB);
    writeFileSync(ballast(), Buffer.alloc(size));
  };

  beforeAll(async () => {
    dir = tempDir('kora-faults-disk-');
    dataDir = join(dir.path, 'data');
    const tmp = join(dir.path, 'tmp');
    mkdirSync(dataDir);
    mkdirSync(tmp);
    server = new Server(dataDir, tmp, { HEALTH_MIN_FREE_MB: '4' });
    // The probe mounted one: a refusal now is a failure, not a skip.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dataDir], { stdio: 'pipe' });
    mounted = true;
    wav = makeMedia(tmp).music(12, 'music.wav');
    token = userToken(await server.env, 'disk@example.sn');
    await server.start();
    url = await server.url();
  }, 60_000);

  afterAll(async () => {
    await server?.kill();
    if (mounted) execFileSync('umount', [dataDir]);
    dir?.cleanup();
  }, 60_000);

  itOnTmpfs(
    'answers 507 STORAGE.FULL when the disk fills during an upload, removes the partial file, and keeps serving',
    async () => {
      const created = await json(url, '/api/mixing/sessions/create', token, { method: 'POST', body: { name: 'disk' } });
      const sessionId = (created.body.session as { id: string }).id;
      for (const [path, parts] of [
        [
          '/api/audio/upload',
          [
            { field: 'service', value: 'AUDIO_ENHANCEMENT' },
            { file: 'file', filename: 'big.wav', size: 40 * MB },
          ],
        ],
        [`/api/mixing/sessions/${sessionId}/tracks`, [{ file: 'file', filename: 'big.wav', size: 40 * MB }]],
      ] as Array<[string, Part[]]>) {
        const answer = await upload(url, path, token, parts);
        const ok = answer.status === 507 && answer.body.code === 'STORAGE.FULL' && (await server.healthy());
        record('disk full during an upload', ok && halfWritten(dataDir).length === 0);
        expect({ path, status: answer.status, code: answer.body.code }).toEqual({
          path,
          status: 507,
          code: 'STORAGE.FULL',
        });
        expect(halfWritten(dataDir)).toEqual([]);
      }

      // Low before the upload starts: refused at once, before a byte is stored.
      fill(2);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // the disk check is cached for a second
      const health = await fetch(`${url}/api/health`);
      expect(await health.json()).toEqual({ status: 'degraded', failing: ['disk'] });
      const early = await upload(url, '/api/audio/upload', token, [
        { field: 'service', value: 'AI_MASTERING' },
        { file: 'file', filename: 'music.wav', path: wav },
      ]);
      record(
        'disk low: upload refused early',
        early.status === 507 && early.body.code === 'STORAGE.FULL' && (await server.healthy()),
      );
      expect({ status: early.status, code: early.body.code }).toEqual({ status: 507, code: 'STORAGE.FULL' });
      rmSync(ballast());
    },
    60_000,
  );

  itOnTmpfs(
    'fails a job whose results do not fit, cleanly, and keeps serving',
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const uploaded = await upload(url, '/api/audio/upload', token, [
        { field: 'service', value: 'AI_MASTERING' },
        { file: 'file', filename: 'music.wav', path: wav },
      ]);
      expect(uploaded.status).toBe(201);
      fill(0.5); // the engine works in the temp dir; its results no longer fit under DATA_DIR
      const trackId = uploaded.body.id!;
      const final = async (): Promise<string | null> => {
        const status = String((await json(url, `/api/audio/track/${trackId}/status`, token)).body.status);
        return status === 'FAILED' || status === 'PREVIEW_READY' ? status : null;
      };
      // The results' write fails for want of room. Recording the failure may fail too (the event log is on the same
      // disk): then the job stays leased and is taken again, so the track's end is only certain once room is back.
      await waitFor(
        async () => server.running!.output().includes('StorageFullError') || (await final()) !== null,
        30_000,
      );
      const serving = await server.healthy();
      const partials = halfWritten(dataDir).length;
      rmSync(ballast());
      await waitFor(async () => (await final()) !== null, 60_000);
      const status = await final();
      const healthy = await server.healthy();
      record(
        'disk full during a job',
        serving && healthy && partials === 0 && halfWritten(dataDir).length === 0,
        0,
        `track ${String(status)} once room was back`,
      );
      expect({ serving, healthy, partials }).toEqual({ serving: true, healthy: true, partials: 0 });
      expect(halfWritten(dataDir)).toEqual([]);
      expect(server.running!.output()).not.toContain('uncaught exception');
    },
    120_000,
  );
});
