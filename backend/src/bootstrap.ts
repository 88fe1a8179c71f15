import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { IdentityProvider } from '@kora/identity';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type AppOptions, AppModule } from './app.module';
import type { Config } from './config/config';
import { bodyParsers, requestPipeline, serveWebClient } from './http/http-pipeline';
import { BuiltInIdentityProvider } from './identity-provider/built-in-provider';
import { createLogger, PinoNestLogger } from './observability/logger';
import { Metrics } from './observability/metrics';
import { KoraIoAdapter } from './realtime/io-adapter';

export interface KoraApp {
  readonly app: INestApplication;
  readonly logger: Logger;
}

/** The web client's build output, next to the backend in the repository. */
export function defaultWebDist(): string {
  return join(__dirname, '..', '..', 'web', 'dist');
}

/** Builds the whole server (not yet listening): tests drive it with supertest, `main.ts` listens. */
export async function createApp(config: Config, options: AppOptions & { logger?: Logger } = {}): Promise<KoraApp> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logger, options), {
    logger: new PinoNestLogger(logger),
    cors: config.WEB_ORIGIN.length > 0 ? { origin: config.WEB_ORIGIN, credentials: true } : false,
    // Bodies are parsed below, everywhere but under /oidc, where the provider reads its own.
    bodyParser: false,
  });
  app.set('trust proxy', config.TRUST_PROXY);
  // API answers change with every event: no ETag hashing of each body (streams send their own validators).
  app.set('etag', false);
  app.useWebSocketAdapter(new KoraIoAdapter(app, config.WEB_ORIGIN));
  const metrics = app.get(Metrics);
  app.use(requestPipeline(logger, metrics));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'media-src': ["'self'", 'blob:', 'data:'],
          'connect-src': ["'self'", 'ws:', 'wss:', ...config.WEB_ORIGIN],
          'style-src': ["'self'", "'unsafe-inline'"],
          'worker-src': ["'self'", 'blob:'],
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(bodyParsers());
  const identity = app.get(IdentityProvider);
  if (identity instanceof BuiltInIdentityProvider) {
    app.use('/oidc', identity.router());
    app.use('/oidc', identity.oidc.callback());
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
  serveWebClient(app, config.WEB_DIST ?? defaultWebDist(), logger);
  await app.init();
  return { app, logger };
}
