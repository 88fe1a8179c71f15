// The browser suite's runner (`npm run test:browser`): every `*.test.mjs` here on Node's test runner, two files at a
// time, then those that judge the clock (SOLO) alone. A failed test leaves its error, the browser's console and
// network journal, the server's log over the test and screenshots under ARTIFACTS (`recordFailures` in support.mjs);
// after a failure this prints where, what each file holds, and last each failed test's message, so that a CI log
// alone (even its tail) tells what happened.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ARTIFACTS, ROOT } from './support.mjs';

const HERE = join(ROOT, 'web', 'e2e');
/** The last lines of each text file printed (the whole file stays on disk). */
const TAIL = 150;
/** The first lines of each failed test's error (its name and message, no stack), repeated at the very end. */
const ERROR_LINES = 6;

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
/**
 * Files that judge a job against the clock run after the others, alone: beside another file's jobs a job slows down
 * halfway, and its curve is then wrong for a reason the product cannot know (`progress.test.mjs`).
 */
const SOLO = ['progress'];
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
const isSolo = (path) => SOLO.includes(path.slice(HERE.length + 1, -'.test.mjs'.length));
/** Node's test runner over `paths`, `concurrency` files at a time; resolves with its exit code. */
const runFiles = (paths, concurrency) =>
  paths.length === 0
    ? Promise.resolve(0)
    : new Promise((resolve) => {
        const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...paths], {
          cwd: ROOT,
          stdio: 'inherit',
          env: demoCache ? { ...process.env, DEMO_CACHE_DIR: demoCache } : process.env,
        });
        child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
      });
const shared = await runFiles(
  chosen.filter((path) => !isSolo(path)),
  CONCURRENCY,
);
const alone = await runFiles(chosen.filter(isSolo), 1);
const code = shared || alone;
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
  // Last, what failed and why, each in a few lines: a CI log cut to its tail still says it.
  const errors = saved.filter((path) => path.endsWith('error.txt'));
  console.error(`\n===== browser suite: ${errors.length} failed test${errors.length === 1 ? '' : 's'}, why`);
  for (const path of errors) {
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^\s+at /.test(line));
    console.error(`-- ${lines.slice(0, ERROR_LINES).join('\n   ')}`);
  }
}
process.exitCode = code;
