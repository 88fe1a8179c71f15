import type { INestApplication } from '@nestjs/common';
import { createServer } from 'node:net';
import pino from 'pino';
import type { AppOptions } from '../../src/app.module';
import { createApp } from '../../src/bootstrap';
import { type Config, loadConfig } from '../../src/config/config';
import { LocalTokenVerifier } from './local-token-verifier';
import { tempDir } from './temp';

export interface TestApp {
  app: INestApplication;
  /** Every route the HTTP layer registered. */
  routes: ReadonlyArray<{ method: string; path: string }>;
  config: Config;
  /** http://127.0.0.1:<port>, which is also the PUBLIC_URL (the built-in issuer lives under it). */
  url: string;
  dataDir: string;
  /** A token the spine's tests use (only with the default test verifier). */
  token(userId: string, options?: { expiresIn?: string; email?: string }): Promise<string>;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A whole server on a temporary data directory, listening on a free loopback port. By default it trusts simple test
 * tokens (`token()`); with `realAuth` it trusts only the configured OpenID issuer, as in production.
 */
export async function startTestApp(
  options: AppOptions & { env?: Record<string, string>; realAuth?: boolean; dataDir?: string } = {},
): Promise<TestApp> {
  const dir = options.dataDir ? { path: options.dataDir, cleanup: () => undefined } : tempDir();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATA_DIR: dir.path,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    PUBLIC_URL: url,
    PURGE_INTERVAL_MINUTES: '0',
    // Demo material takes the engine some seconds to make: only the tests about demos ask for it.
    DEMO_TRACKS: 'off',
    ...options.env,
  });
  const verifier = options.realAuth ? undefined : new LocalTokenVerifier('test-secret-test-secret-test-secret-42');
  const { app, routes } = await createApp(config, {
    ...options,
    ...(verifier ? { verifier } : {}),
    logger: pino({ level: process.env.TEST_LOG ?? 'silent' }),
  });
  await app.listen(port, '127.0.0.1');
  return {
    app,
    routes,
    config,
    url,
    dataDir: dir.path,
    token: (userId, tokenOptions) => {
      if (!verifier) throw new Error('token() needs the test verifier; this app trusts real issuers only');
      return verifier.sign(userId, tokenOptions);
    },
    close: async () => {
      await app.close();
      dir.cleanup();
    },
  };
}
