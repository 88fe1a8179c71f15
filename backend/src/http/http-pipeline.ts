import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { closeAfterAnswer, DISCARD_LIMITS } from '@kora/kernel/nest';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join, sep } from 'node:path';
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics';
import { type RequestContext, requestContext } from '../observability/request-context';

const CORRELATION_HEADER = 'x-correlation-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_LIMIT = 1024 * 1024;
const FORM_LIMIT = 64 * 1024;

/** Paths the server answers itself; everything else under GET may be a client-side route of the web app. */
export const SERVER_PATHS = /^\/(api|socket\.io|metrics|oidc|dev)(\/|$)/;

/** What the pipeline keeps on each request: its context (correlation and user ids), its path and when it started. */
interface Exchange {
  context: RequestContext;
  path: string;
  started: bigint;
}

const exchanges = new WeakMap<IncomingMessage, Exchange>();

/**
 * Helmet's options for this server: the Content-Security-Policy lets the web client reach `webOrigins` (the issuer's
 * among them), by its calls and by the hidden frame that renews a session through the provider when a refresh token
 * is refused. `upgrade-insecure-requests` only where every origin is HTTPS: on a plain-HTTP install (`npm start`)
 * it turned the frame's redirect back to `/callback` into an HTTPS address, which the policy then refused, and the
 * page waited a minute for a frame that never answered. Strict-Transport-Security likewise: only over HTTPS.
 */
export function helmetOptions(webOrigins: readonly string[]): Parameters<typeof helmet>[0] {
  const secure = webOrigins.length > 0 && webOrigins.every((origin) => origin.startsWith('https:'));
  return {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'media-src': ["'self'", 'blob:', 'data:'],
        'connect-src': ["'self'", 'ws:', 'wss:', ...webOrigins],
        'frame-src': ["'self'", ...webOrigins],
        'style-src': ["'self'", "'unsafe-inline'"],
        'worker-src': ["'self'", 'blob:'],
        'upgrade-insecure-requests': secure ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // HSTS only where the site is served over HTTPS: sent over plain HTTP it means nothing, and a browser that saw it
    // from a name later served over HTTPS would refuse that name's plain-HTTP install for a year.
    strictTransportSecurity: secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  };
}

/**
 * The security headers, as helmet decides them for this server's options: computed once by running helmet over a
 * recording response, then set on every raw response (so that answers Fastify does not send itself carry them too).
 * The options hold no per-request value (no nonce), so every answer gets the same set; running helmet's dozen
 * middleware per request cost more than the headers themselves.
 */
function securityHeaders(webOrigins: readonly string[]): {
  set: ReadonlyArray<readonly [string, string]>;
  removed: readonly string[];
} {
  const middleware = helmet(helmetOptions(webOrigins));
  const set = new Map<string, string>();
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => set.set(name, String(value)),
    removeHeader: (name: string) => {
      set.delete(name);
      removed.push(name);
    },
  };
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (failure = error));
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return { set: [...set], removed };
}

/**
 * Per request: a correlation id (taken from `X-Correlation-Id` or `X-Request-Id` when well-formed, else new), echoed
 * in the response and attached to every log line and event of the request; the security headers; a latency
 * observation labelled by the matched route (never the raw URL, to keep the label set small); one access-log line.
 *
 * Fastify hooks rather than middleware: the context is entered in `preHandler`, after the body is read, because a
 * body arrives on the socket's own async context and would lose a context entered earlier.
 */
export function requestPipeline(
  fastify: FastifyInstance,
  logger: Logger,
  metrics: Metrics,
  webOrigins: readonly string[],
): void {
  const security = securityHeaders(webOrigins);

  fastify.addHook('onRequest', (request, reply, done) => {
    const incoming = request.headers[CORRELATION_HEADER] ?? request.headers['x-request-id'];
    const correlationId = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    exchanges.set(request.raw, {
      context: { correlationId },
      path: request.url.split('?')[0]!,
      started: process.hrtime.bigint(),
    });
    const raw = reply.raw;
    raw.setHeader(CORRELATION_HEADER, correlationId);
    for (const [name, value] of security.set) raw.setHeader(name, value);
    for (const name of security.removed) raw.removeHeader(name);
    done();
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    const exchange = exchanges.get(request.raw);
    if (exchange) requestContext.run(exchange.context, done);
    else done();
  });
  // An answer decided before the body was read to its end (a refused upload; a 401, 413 or 507 before reading it):
  // `Connection: close`, the rest of the body discarded within bounds, then the connection closed.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete)
      closeAfterAnswer(request.raw, reply.raw, DISCARD_LIMITS, (bytes) => metrics.discardedBody.observe(bytes));
    done(null, payload);
  });
  // Runs for every answer, hijacked ones included (Fastify listens for the raw response's end).
  fastify.addHook('onResponse', (request, reply, done) => {
    const exchange = exchanges.get(request.raw);
    if (exchange) {
      const route = routeLabel(request);
      const seconds = Number(process.hrtime.bigint() - exchange.started) / 1e9;
      metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, seconds);
      if (route !== '/metrics' && route !== '/api/health' && logger.isLevelEnabled('info')) {
        requestContext.run(exchange.context, () =>
          logger.info(
            {
              req: { method: request.method, url: exchange.path },
              res: { statusCode: reply.statusCode },
              ms: Math.round(seconds * 1000),
            },
            'request completed',
          ),
        );
      }
    }
    done();
  });
}

function routeLabel(request: FastifyRequest): string {
  const route = request.is404 ? undefined : request.routeOptions.url;
  if (route && route !== '/*') return route.replace(/\/\*$/, '');
  if (request.method === 'GET' && !SERVER_PATHS.test(request.url)) return 'web';
  return 'unmatched';
}

/** An unreadable body: a 400 that the error filter turns into the API's error shape. */
function unreadableBody(): Error & { statusCode: number } {
  return Object.assign(new Error('The request body could not be read'), { statusCode: 400 });
}

/** The newest event position a client's socket delivered (web/src/lib/api.ts sends it on every call). */
export const SEEN_POSITION_HEADER = 'kora-seen-position';
/** How long a request waits for this process's read models to show what its client was told. */
const SEEN_WAIT_MS = 1_000;

/**
 * Reading after a push: the socket tells a client of an event as soon as it is durable, before this process's read
 * models have applied it (docs/architecture.md, "Pushing to sockets"). A request that says which position its client
 * has seen waits until they have, so a list refetched because a message said a track changed shows the change; at
 * most a second, so a stuck read model costs a request no more. Without the header, or when the read models are
 * already there, it goes straight on.
 */
export function readAfterPush(
  fastify: FastifyInstance,
  projections: { waitFor(position: number, timeoutMs: number): Promise<boolean> },
): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const seen = request.headers[SEEN_POSITION_HEADER];
    const position = typeof seen === 'string' ? Number(seen) : NaN;
    if (!Number.isSafeInteger(position) || position <= 0) return done();
    projections.waitFor(position, SEEN_WAIT_MS).then(
      () => done(),
      () => done(),
    );
  });
}

/**
 * JSON (1 MB; an empty body reads as none) and form bodies (64 KB). Multipart bodies are left on the request for the
 * upload routes to stream, never buffered; other types are refused with 415. /oidc never gets here: its provider
 * reads its own bodies (see `mountRawHandler`).
 */
export function bodyParsers(fastify: FastifyInstance): void {
  // Fastify's own parser refuses `__proto__` and `constructor.prototype` keys (prototype poisoning).
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: JSON_LIMIT },
    (request, body: string, done) => {
      // The bytes as sent: provider callbacks are verified on them, never on a re-serialisation of the parsed body.
      (request as { rawBody?: string }).rawBody = body;
      if (body.trim() === '') return done(null, undefined);
      parseJson(request, body, (error, value) => (error ? done(unreadableBody(), undefined) : done(null, value)));
    },
  );
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body: string, done) => done(null, Object.fromEntries(new URLSearchParams(body))),
  );
  fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));
  // A resumable upload's bytes (tus `PATCH`): left on the request for the upload store to append.
  fastify.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null, undefined));
}

/**
 * Hands every request under `prefix` to a plain Node handler (the built-in provider's pages and OpenID endpoints)
 * before Fastify reads the body, after the pipeline's own hooks: they get the correlation id, the security headers
 * and the access log like any other answer.
 */
export function mountRawHandler(
  fastify: FastifyInstance,
  prefix: string,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): void {
  const hijack = (request: FastifyRequest, reply: FastifyReply, _done: () => void): void => {
    reply.hijack();
    handler(request.raw, reply.raw);
  };
  for (const url of [prefix, `${prefix}/*`]) {
    fastify.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      url,
      onRequest: hijack,
      handler: () => undefined,
    });
  }
}

/** True when the client takes HTML, as browsers asking for a page do (no Accept header counts as anything). */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'text/html' && type !== 'text/*' && type !== '*/*') return false;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Serves the built web client: hashed assets cached for a year, `index.html` never cached, and every GET that is
 * not a server path and accepts HTML answered with `index.html` so client-side routes survive a reload. Anything
 * else falls through to the API's 404.
 */
export async function serveWebClient(app: NestFastifyApplication, webDist: string, logger: Logger): Promise<void> {
  const index = join(webDist, 'index.html');
  if (!existsSync(index)) {
    logger.warn({ webDist }, 'web client not built: run `npm run build:web` (npm start does it)');
    return;
  }
  const fastify = app.getHttpAdapter().getInstance();
  const assets = `${join(webDist, 'assets')}${sep}`;
  await fastify.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    index: false,
    // One route per file of the build (it does not change while the server runs): API paths never touch the disk.
    wildcard: false,
    // The build writes a brotli and a gzip copy of each script, style sheet and page (web/vite.config.ts): the
    // browser gets the one it accepts, nothing is compressed per request.
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header('Cache-Control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  fastify.get('/*', (request, reply) => {
    if (SERVER_PATHS.test(request.url) || !acceptsHtml(request.headers.accept)) {
      reply.callNotFound();
      return reply;
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}

/**
 * When the server closes, closes at once the connections not serving a request (kept alive between requests, or
 * opened ahead by a browser and never used). Node's `server.close()` stops listening but waits for them until they
 * time out (Fastify keeps connections alive 72 s), and Socket.IO closes the HTTP server before Fastify does, so a
 * SIGTERM (or a test's close) would wait that long, past the shutdown timeout, for nothing. A connection serving a
 * request finishes its answer, then closes.
 */
export function closeIdleConnectionsOnClose(server: Server): void {
  const sockets = new Set<Socket>();
  const answering = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      answering.delete(socket);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as Socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (answering.get(socket) ?? 1) - 1;
      if (left > 0) return void answering.set(socket, left);
      answering.delete(socket);
      if (closing) socket.end();
    });
  });
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    closing = true;
    for (const socket of sockets) if (!answering.has(socket)) socket.destroy();
    return close(callback);
  };
}

/**
 * Counts the requests in progress on the Node server (every route, the built-in provider's included): from the
 * request's head read to its answer's end or its connection's close, whichever comes first.
 */
export function countRequestsInProgress(
  server: Server,
  gauge: Pick<Metrics['requestsInProgress'], 'inc' | 'dec'>,
): void {
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    gauge.inc();
    response.once('close', () => gauge.dec());
  });
}

/**
 * How long a request body may stall (no byte arriving) before its connection is closed. A client that announces a
 * body and sends nothing held a socket and a parser for ever (Fastify's request timeout is off, so that a slow
 * phone's upload of 100 MB may take the time it needs). Without a token, less: nobody is known to be waiting.
 */
export const BODY_IDLE_MS = { withToken: 30_000, withoutToken: 10_000 };

/** A request says it has a body by its length or by chunked transfer (HTTP/1.1, RFC 9112 section 6.3). */
export function announcesBody(headers: IncomingMessage['headers']): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

/**
 * Closes the connection of a request whose announced body stops arriving for `BODY_IDLE_MS` (a socket idle timeout
 * from the request's start to its body's end; bytes that arrive restart it). On the Node server, so that every
 * route has it, the built-in provider's included.
 */
export function closeStalledBodies(server: Server, limits: typeof BODY_IDLE_MS = BODY_IDLE_MS): void {
  server.on('request', (request: IncomingMessage) => {
    if (!announcesBody(request.headers) || request.complete) return;
    const socket = request.socket;
    const idleMs = request.headers.authorization ? limits.withToken : limits.withoutToken;
    // A listener on the request's own 'timeout' decides, whatever the server's other timeouts do.
    const stalled = (): void => void socket.destroy();
    request.once('timeout', stalled);
    socket.setTimeout(idleMs);
    const done = (): void => {
      request.off('timeout', stalled);
      if (!socket.destroyed) socket.setTimeout(0);
    };
    request.once('end', done);
    request.once('close', done);
  });
}
