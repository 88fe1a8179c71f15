#!/usr/bin/env node
// Runs npm scripts side by side and fails when any fails: `node scripts/parallel.mjs typecheck lint boundaries`.
// Each script's output is held and printed whole when it ends, so a CI log reads as if they ran one after the other.
// Used by `npm run test:suite` for the static checks: each is one thread (tsc, eslint, prettier, dependency-cruiser),
// so on two cores they take the time of the longest instead of their sum.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/parallel.mjs <npm script>...');
  process.exit(2);
}
// Under npm, the npm that runs us (its own Node); else the one on the PATH.
const cli = process.env.npm_execpath;
const npm = cli && /\.[cm]?js$/.test(cli) ? [process.execPath, cli] : ['npm'];

const results = await Promise.all(
  scripts.map(
    (script) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(npm[0], [...npm.slice(1), 'run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
        child.on('close', (code, signal) => {
          const status = code ?? (signal ? 1 : 0);
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`\n> ${script} (${status === 0 ? 'passed' : `failed, exit ${status}`}, ${seconds} s)\n`);
          process.stdout.write(Buffer.concat(output));
          resolve(status);
        });
      }),
  ),
);
process.exitCode = results.find((status) => status !== 0) ?? 0;
