import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics';
import { requestContext } from '../observability/request-context';

const CORRELATION_HEADER = 'x-correlation-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Paths the server answers itself; everything else under GET may be a client-side route of the web app. */
export const SERVER_PATHS = /^\/(api|socket\.io|metrics|oidc|dev)(\/|$)/;

/**
 * Per request: a correlation id (taken from `X-Correlation-Id` or `X-Request-Id` when well-formed, else new), echoed
 * in the response and attached to every log line and event of the request; a latency observation labelled by the
 * matched route (never the raw URL, to keep the label set small); one access-log line.
 */
export function requestPipeline(logger: Logger, metrics: Metrics) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const incoming = request.header(CORRELATION_HEADER) ?? request.header('x-request-id');
    const correlationId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    response.setHeader(CORRELATION_HEADER, correlationId);
    const started = process.hrtime.bigint();
    const context = { correlationId } as { correlationId: string; userId?: string };
    response.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(request);
      metrics.httpDuration.observe({ method: request.method, route, status: String(response.statusCode) }, seconds);
      if (route === '/metrics' || route === '/api/health') return;
      requestContext.run(context, () =>
        logger.info(
          {
            req: { method: request.method, url: request.originalUrl.split('?')[0] },
            res: { statusCode: response.statusCode },
            ms: Math.round(seconds * 1000),
          },
          'request completed',
        ),
      );
    });
    requestContext.run(context, next);
  };
}

function routeLabel(request: Request): string {
  const route = (request as Request & { route?: { path?: string } }).route?.path;
  if (route) return `${request.baseUrl}${route}`;
  if (request.method === 'GET' && !SERVER_PATHS.test(request.path)) return 'web';
  return 'unmatched';
}

/**
 * JSON (1 MB) and form bodies for every path except /oidc, whose provider parses its own. A malformed or oversized
 * body gets the API's error shape instead of Express's HTML page.
 */
export function bodyParsers() {
  const json = express.json({ limit: '1mb' });
  const form = express.urlencoded({ extended: false, limit: '64kb' });
  const fail = (response: Response, error: { status?: number; type?: string }): void => {
    const tooLarge = error.type === 'entity.too.large';
    response.status(tooLarge ? 413 : 400).json({
      statusCode: tooLarge ? 413 : 400,
      code: tooLarge ? 'HTTP.PAYLOAD_TOO_LARGE' : 'HTTP.BAD_REQUEST',
      message: tooLarge ? 'The request body is too large' : 'The request body could not be read',
    });
  };
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.path.startsWith('/oidc/') || request.path === '/oidc') return next();
    json(request, response, (jsonError?: unknown) => {
      if (jsonError) return fail(response, jsonError as { type?: string });
      form(request, response, (formError?: unknown) =>
        formError ? fail(response, formError as { type?: string }) : next(),
      );
    });
  };
}

/**
 * Serves the built web client: hashed assets cached for a year, `index.html` never cached, and every GET that is
 * not a server path and accepts HTML answered with `index.html` so client-side routes survive a reload.
 */
export function serveWebClient(app: INestApplication, webDist: string, logger: Logger): void {
  const index = join(webDist, 'index.html');
  if (!existsSync(index)) {
    logger.warn({ webDist }, 'web client not built: run `npm run build:web` (npm start does it)');
    return;
  }
  const assets = express.static(webDist, {
    index: false,
    setHeaders(response, path) {
      response.setHeader(
        'Cache-Control',
        path.includes(`${join(webDist, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // API calls never look for a file on disk.
  app.use((request: Request, response: Response, next: NextFunction) =>
    SERVER_PATHS.test(request.path) ? next() : assets(request, response, next),
  );
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (SERVER_PATHS.test(request.path) || !request.accepts('html')) return next();
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(index);
  });
}
