#!/usr/bin/env node
// Runs npm scripts side by side and fails when any fails: `node scripts/parallel.mjs typecheck lint boundaries`.
// Each script's output is held and printed whole when it ends, so a CI log reads as if they ran one after the other.
// Used by `npm run test:suite` for the static checks: each is one thread (tsc, eslint, prettier, dependency-cruiser),
// so on two cores they take the time of the longest instead of their sum.
//
// A script written `background:<name>` runs at the lowest CPU priority (nice 19, inherited by everything it starts):
// it takes only the time the others leave idle. `npm run test:suite` runs the static checks and the smoke on the other
// Node lines so beside Jest and the fault suite, whose tests wait (on servers, ffmpeg, stalled bodies, restarts,
// leases) a good part of the time, and whose bounds on time must not feel the installs and builds. When a single
// script runs in the foreground, its output streams as it comes (a CI log then shows how far Jest got); the
// background scripts' outputs are still held and printed whole.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/parallel.mjs <npm script>...');
  process.exit(2);
}
// Under npm, the npm that runs us (its own Node); else the one on the PATH.
const cli = process.env.npm_execpath;
const npm = cli && /\.[cm]?js$/.test(cli) ? [process.execPath, cli] : ['npm'];

/** The niceness of a `background:` script: the lowest priority, so it never delays the others' work. */
const BACKGROUND_NICE = 19;

const foreground = scripts.filter((named) => !named.startsWith('background:')).length;

const results = await Promise.all(
  scripts
    .map((named) => [named.replace(/^background:/, ''), named.startsWith('background:')])
    .map(
      ([script, background]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const streamed = !background && foreground === 1;
          const child = spawn(npm[0], [...npm.slice(1), 'run', script], {
            stdio: ['ignore', streamed ? 'inherit' : 'pipe', streamed ? 'inherit' : 'pipe'],
          });
          const output = [];
          if (background) {
            try {
              setPriority(child.pid, BACKGROUND_NICE);
            } catch (error) {
              output.push(Buffer.from(`parallel: ${script} left at normal priority (${error.message})\n`));
            }
          }
          child.stdout?.on('data', (chunk) => output.push(chunk));
          child.stderr?.on('data', (chunk) => output.push(chunk));
          child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
          child.on('close', (code, signal) => {
            const status = code ?? (signal ? 1 : 0);
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            process.stdout.write(
              `\n> ${script}${background ? ' (in the background)' : ''} (${status === 0 ? 'passed' : `failed, exit ${status}`}, ${seconds} s)\n`,
            );
            process.stdout.write(Buffer.concat(output));
            resolve(status);
          });
        }),
    ),
);
process.exitCode = results.find((status) => status !== 0) ?? 0;
