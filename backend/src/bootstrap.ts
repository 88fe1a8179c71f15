import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IdentityProvider } from '@kora/identity';
import { ProjectionRunner } from '@kora/kernel';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type AppOptions, AppModule } from './app.module';
import type { Config } from './config/config';
import {
  bodyParsers,
  closeIdleConnectionsOnClose,
  closeStalledBodies,
  countRequestsInProgress,
  mountRawHandler,
  readAfterPush,
  requestPipeline,
  serveWebClient,
} from './http/http-pipeline';
import { redirectToPublicUrl } from './http/public-url';
import { RevokedSessions } from './auth/revoked-sessions';
import { TokenBeforeBody } from './auth/token-before-body';
import { TokenVerifier } from './auth/token-verifier';
import { BuiltInIdentityProvider } from './identity-provider/built-in-provider';
import { createLogger, PinoNestLogger } from './observability/logger';
import { Metrics } from './observability/metrics';
import { KoraIoAdapter } from './realtime/io-adapter';

export interface KoraApp {
  readonly app: INestApplication;
  readonly logger: Logger;
  /** Every route the HTTP layer registered (method and path pattern), for the route audit and operators. */
  readonly routes: ReadonlyArray<{ method: string; path: string }>;
}

/** The web client's build output, next to the backend in the repository. */
export function defaultWebDist(): string {
  return join(__dirname, '..', '..', 'web', 'dist');
}

/** Builds the whole server (not yet listening): tests drive it with supertest, `main.ts` listens. */
export async function createApp(config: Config, options: AppOptions & { logger?: Logger } = {}): Promise<KoraApp> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const adapter = new FastifyAdapter({
    trustProxy: config.TRUST_PROXY,
    routerOptions: {
      // The e-mailed download links carry a signed token in the path.
      maxParamLength: 2048,
      ignoreTrailingSlash: true,
    },
  });
  const fastify = adapter.getInstance();
  closeIdleConnectionsOnClose(fastify.server);
  closeStalledBodies(fastify.server);
  const routes: Array<{ method: string; path: string }> = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, path: route.url });
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, logger, options), adapter, {
    logger: new PinoNestLogger(logger),
    cors: config.WEB_ORIGIN.length > 0 ? { origin: config.WEB_ORIGIN, credentials: true } : false,
    // Bodies are parsed by the pipeline's own parsers (multipart is streamed by the upload routes).
    bodyParser: false,
  });
  app.useWebSocketAdapter(new KoraIoAdapter(app, config.WEB_ORIGIN));
  // The pages talk to the issuer (discovery, tokens): the CSP's connect-src names its origin beside WEB_ORIGIN.
  requestPipeline(fastify, logger, app.get(Metrics), [new URL(config.oidc.issuer).origin, ...config.WEB_ORIGIN]);
  countRequestsInProgress(fastify.server, app.get(Metrics).requestsInProgress);
  readAfterPush(fastify, app.get(ProjectionRunner));
  redirectToPublicUrl(fastify, config.publicUrl, config.WEB_ORIGIN);
  bodyParsers(fastify);
  const tokenBeforeBody = new TokenBeforeBody(app.get(TokenVerifier), app.get(RevokedSessions));
  tokenBeforeBody.hook(fastify);
  const identity = app.get(IdentityProvider);
  if (identity instanceof BuiltInIdentityProvider) {
    mountRawHandler(fastify, '/oidc', identity.handler(config.TRUST_PROXY));
  }
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Kora API')
      .setDescription('AI mastering, stem separation, audio enhancement and mixing. Socket.IO events: see docs/api.md.')
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs/openapi.json' });
  await serveWebClient(app, config.WEB_DIST ?? defaultWebDist(), logger);
  await app.init();
  tokenBeforeBody.install(app, routes);
  await fastify.ready();
  return { app, logger, routes };
}
