import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Removes the run's test media made by `global-setup.ts` (a folder set from outside is left alone). */
export default function teardown(): void {
  const dir = process.env.KORA_TEST_MEDIA_CACHE;
  if (dir?.startsWith(`${tmpdir()}/kora-test-media-`)) rmSync(dir, { recursive: true, force: true });
}
