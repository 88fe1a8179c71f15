import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A secret that must survive restarts: the configured value when there is one, else a random value generated once
 * under DATA_DIR/secrets (mode 600). In a cluster, configure it so every replica shares it.
 */
export function persistentSecret(dataDir: string, name: string, configured: string | undefined, bytes = 32): Buffer {
  if (configured) {
    const decoded = /^[0-9a-f]+$/i.test(configured)
      ? Buffer.from(configured, 'hex')
      : Buffer.from(configured, 'base64');
    if (decoded.length < bytes) throw new Error(`${name} must hold at least ${bytes} bytes (hex or base64)`);
    return decoded.subarray(0, bytes);
  }
  const file = join(dataDir, 'secrets', name);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(bytes).toString('base64'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
