import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Process-level tests run the built server, exactly as `npm start` does: build it once before the suite. */
export default function setup(): void {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-server.mjs'), '--quiet'], {
    stdio: 'inherit',
  });
}
