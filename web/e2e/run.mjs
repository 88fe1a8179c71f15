// The browser suite's runner (`npm run test:browser`): every `*.test.mjs` here, two files at a time, on Node's test
// runner. A failed test leaves its error, the browser's console and network journal, the server's log over the test and
// screenshots under ARTIFACTS (`recordFailures` in support.mjs); after a failure this prints where, and what each file
// holds, so that a CI log alone tells what happened.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ARTIFACTS, ROOT } from './support.mjs';

const HERE = join(ROOT, 'web', 'e2e');
/** The last lines of each text file printed (the whole file stays on disk). */
const TAIL = 150;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Files run two at a time (`KORA_E2E_CONCURRENCY`), each with its own server, data directory and browser: a file
 * spends most of its time waiting (on its server's jobs, a throttled network, the sandbox's pages), so two share the
 * machine's cores without slowing each other much. Longest first, so the last to start are the short ones (the
 * order of the last fresh-clone run's durations; a file not listed runs after these).
 */
const LONGEST_FIRST = ['app', 'layout', 'payment', 'studio', 'network', 'stems', 'library', 'mixing'];
const CONCURRENCY = Math.max(1, Number(process.env.KORA_E2E_CONCURRENCY ?? 2) || 1);
const rank = (path) => {
  const index = LONGEST_FIRST.indexOf(path.slice(HERE.length + 1, -'.test.mjs'.length));
  return index === -1 ? LONGEST_FIRST.length : index;
};

rmSync(ARTIFACTS, { recursive: true, force: true });
const tests = readdirSync(HERE)
  .filter((name) => name.endsWith('.test.mjs'))
  .sort()
  .map((name) => join(HERE, name))
  .sort((a, b) => rank(a) - rank(b));
const only = process.argv.slice(2);
const chosen = only.length > 0 ? tests.filter((path) => only.some((name) => path.includes(name))) : tests;
// Each file's server makes the demo material at its first sign-up (four engine jobs, about 13 s of CPU): the first
// keeps it in this run's cache and the others copy it (`DEMO_CACHE_DIR`, docs/operations.md).
const demoCache = process.env.DEMO_CACHE_DIR ? null : mkdtempSync(join(tmpdir(), 'kora-e2e-demo-'));
const code = await new Promise((resolve) => {
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${CONCURRENCY}`, ...chosen], {
    cwd: ROOT,
    stdio: 'inherit',
    env: demoCache ? { ...process.env, DEMO_CACHE_DIR: demoCache } : process.env,
  });
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
});
if (demoCache) rmSync(demoCache, { recursive: true, force: true });
if (code !== 0 && existsSync(ARTIFACTS)) {
  const saved = [...files(ARTIFACTS)];
  console.error(`\nbrowser suite: failed; what the failed tests left is in ${ARTIFACTS} (${saved.length} files)`);
  for (const path of saved) {
    const name = relative(ARTIFACTS, path);
    if (path.endsWith('.png')) {
      console.error(`\n===== ${name} (${statSync(path).size} bytes)`);
      continue;
    }
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const shown = lines.slice(-TAIL);
    const cut = lines.length - shown.length;
    console.error(`\n===== ${name}${cut > 0 ? ` (its last ${TAIL} of ${lines.length} lines)` : ''}`);
    console.error(shown.join('\n'));
  }
}
process.exitCode = code;
