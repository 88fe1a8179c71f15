import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config';

/**
 * What a started server records in `DATA_DIR/server.json`: the address it serves and the issuer and audience its
 * tokens carry. The command lines that print tokens (`npm run users -- token`) read it, so their tokens are the ones
 * the server accepts without the operator restating PORT or PUBLIC_URL.
 */
export interface ServerInfo {
  readonly publicUrl: string;
  readonly issuer: string;
  readonly audience: string;
  readonly clientId: string;
  readonly provider: 'built-in' | 'external';
  readonly port: number;
  readonly pid: number;
  readonly startedAt: string;
}

export const SERVER_INFO_FILE = 'server.json';

export function serverInfo(config: Config, now = new Date()): ServerInfo {
  return {
    publicUrl: config.publicUrl,
    issuer: config.oidc.issuer,
    audience: config.oidc.audience,
    clientId: config.oidc.clientId,
    provider: config.embedded.identity ? 'built-in' : 'external',
    port: config.PORT,
    pid: process.pid,
    startedAt: now.toISOString(),
  };
}

/** Written at every start, whole or not at all (a temporary file renamed into place). */
export function writeServerInfo(config: Config): void {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const file = join(config.DATA_DIR, SERVER_INFO_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(serverInfo(config), null, 2)}\n`);
  renameSync(temporary, file);
}

/** The last started server's record under `dataDir`, or null when no server has started there (or it is unreadable). */
export function readServerInfo(dataDir: string): ServerInfo | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, SERVER_INFO_FILE), 'utf8'));
  } catch {
    return null;
  }
  const info = parsed as Partial<ServerInfo> | null;
  if (
    typeof info?.publicUrl !== 'string' ||
    typeof info.issuer !== 'string' ||
    typeof info.audience !== 'string' ||
    typeof info.clientId !== 'string' ||
    (info.provider !== 'built-in' && info.provider !== 'external')
  ) {
    return null;
  }
  return info as ServerInfo;
}
