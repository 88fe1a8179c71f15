import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Process-level tests run the built server, exactly as `npm start` does: build it once before the suite. And the
 * run's own folder for synthesised test media (`media-cache.ts`; the workers inherit the variable, the teardown
 * removes it), so each run makes its media once and no run leans on an earlier one's.
 */
export default function setup(): void {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-server.mjs'), '--quiet'], {
    stdio: 'inherit',
  });
  process.env.KORA_TEST_MEDIA_CACHE ??= mkdtempSync(join(tmpdir(), 'kora-test-media-'));
}
