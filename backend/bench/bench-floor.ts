import fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Server } from 'socket.io';

/**
 * The floors `npm run bench:api` measures Kora against: each is the least a server can do for the same request, run
 * in its own process as Kora's server is, so that a ratio to it holds from one host to another.
 *
 *   node bench-floor.js list <port> <body.json>   a bare Fastify handler answering GET /api/audio/tracks with the
 *                                                 body Kora gave (serialised on each request, as Kora does)
 *   node bench-floor.js upload <port> <dir>       a bare node:http server streaming POST /api/audio/upload to a file
 *                                                 in <dir>, fsynced before it answers 201
 *   node bench-floor.js socket <port> <dir>       a bare Socket.IO server: DELETE /api/audio/{id} emits
 *                                                 `track.status` to every socket, then answers 204;
 *                                                 DELETE /durable/{id} first appends a line to a log in <dir>
 *                                                 and fdatasyncs it (the least a durable status change costs)
 *
 * Each answers GET /api/health once it listens, and stops on SIGTERM.
 */
const [kind, portText, argument] = process.argv.slice(2);
const port = Number(portText);
const HOST = '127.0.0.1';

function health(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== 'GET' || request.url !== '/api/health') return false;
  response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
  return true;
}

async function listFloor(bodyFile: string): Promise<() => Promise<void>> {
  const body = JSON.parse(readFileSync(bodyFile, 'utf8')) as unknown;
  const app = fastify({ logger: false });
  app.get('/api/health', async () => ({ status: 'ok' }));
  app.get('/api/audio/tracks', async () => body);
  await app.listen({ port, host: HOST });
  return () => app.close();
}

async function uploadFloor(dir: string): Promise<() => Promise<void>> {
  const server = createServer((request, response) => {
    if (health(request, response)) return;
    const removal = /^\/api\/audio\/([\w-]+)$/.exec(request.url ?? '');
    if (request.method === 'DELETE' && removal) {
      unlink(join(dir, removal[1]!)).then(
        () => response.writeHead(204).end(),
        () => response.writeHead(404).end(),
      );
      return;
    }
    if (request.method !== 'POST' || request.url !== '/api/audio/upload') {
      response.writeHead(404).end();
      return;
    }
    const id = randomUUID();
    const store = async (): Promise<void> => {
      const path = join(dir, id);
      await pipeline(request, createWriteStream(path));
      const file = await open(path, 'r');
      try {
        await file.sync();
      } finally {
        await file.close();
      }
    };
    store().then(
      () => response.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id })),
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, HOST, resolve));
  return () => new Promise((resolve) => server.close(() => resolve()));
}

async function socketFloor(dir: string): Promise<() => Promise<void>> {
  // The durable variant writes a line to a log and fdatasyncs it before emitting, as a status change must be on
  // the disk before anyone is told of it.
  const log = await open(join(dir, 'status.log'), 'a');
  const server = createServer((request, response) => {
    if (health(request, response)) return;
    const removal = /^\/(api\/audio|durable)\/([\w-]+)$/.exec(request.url ?? '');
    if (request.method !== 'DELETE' || !removal) {
      response.writeHead(404).end();
      return;
    }
    const message = { trackId: removal[2], status: 'DELETED' };
    const push = (): void => {
      io.emit('track.status', message);
      response.writeHead(204).end();
    };
    if (removal[1] === 'api/audio') push();
    else
      log
        .write(`${JSON.stringify(message)}\n`)
        .then(() => log.datasync())
        .then(push, (error: Error) => response.writeHead(500).end(error.message));
  });
  const io = new Server(server, { transports: ['websocket'] });
  await new Promise<void>((resolve) => server.listen(port, HOST, resolve));
  return async () => {
    await io.close();
    await log.close();
  };
}

async function main(): Promise<void> {
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: bench-floor.js list|upload|socket <port> [arg]');
  const close =
    kind === 'list'
      ? await listFloor(argument ?? '')
      : kind === 'upload'
        ? await uploadFloor(argument ?? '')
        : kind === 'socket'
          ? await socketFloor(argument ?? '')
          : undefined;
  if (!close) throw new Error(`unknown floor "${kind}": list, upload or socket`);
  process.once('SIGTERM', () => {
    void close().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
