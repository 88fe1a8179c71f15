import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { AppOptions } from '../../src/app.module';
import { LocalTokenVerifier } from '../../src/auth/local-token-verifier';
import { createApp } from '../../src/bootstrap';
import { type Config, loadConfig } from '../../src/config/config';
import { tempDir } from './temp';

export interface TestApp {
  app: INestApplication;
  config: Config;
  verifier: LocalTokenVerifier;
  /** http://127.0.0.1:<port> once listening. */
  url: string;
  token(userId: string, options?: { expiresIn?: string; email?: string }): Promise<string>;
  close(): Promise<void>;
}

/** A whole server on a temporary data directory, listening on a free loopback port. */
export async function startTestApp(options: AppOptions & { env?: Record<string, string> } = {}): Promise<TestApp> {
  const dir = tempDir();
  const config = loadConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...options.env });
  const verifier = new LocalTokenVerifier('test-secret-test-secret-test-secret-42');
  const { app } = await createApp(config, { ...options, verifier, logger: pino({ level: 'silent' }) });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    config,
    verifier,
    url: `http://127.0.0.1:${port}`,
    token: (userId, tokenOptions) => verifier.sign(userId, tokenOptions),
    close: async () => {
      await app.close();
      dir.cleanup();
    },
  };
}
