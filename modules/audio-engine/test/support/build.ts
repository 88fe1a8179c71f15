/**
 * Worker threads and the CLI run the compiled `dist/` (Node cannot load TypeScript in a worker). The build script is
 * incremental (it skips files whose output is newer), so calling it from each spec that needs `dist/` is cheap.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'scripts', 'build-server.mjs'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

export const ROOT = repoRoot();
export const ENGINE_DIST = join(ROOT, 'modules', 'audio-engine', 'dist');

export function buildDist(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-server.mjs'), '--quiet'], {
    cwd: ROOT,
    stdio: 'ignore',
  });
}
