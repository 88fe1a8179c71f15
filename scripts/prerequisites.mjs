#!/usr/bin/env node
// What a command needs from the system, brought before it runs: `npm test` starts with `node scripts/prerequisites.mjs
// test`, `npm run eval:engine` and `bench:engine` with `... engine`. Whatever is missing is installed with apt-get on
// Debian or Ubuntu, as root or through `sudo -n` (only the missing packages); anywhere else, or without the rights, it
// stops at once and prints the one command that installs them. The browser suite's Chromium is the system's when there
// is one or it can be installed, else the one the `@sparticuz/chromium` dev dependency ships (`web/e2e/browser.mjs`).
//
// What needs what (checked against the code, not assumed):
// - test: ffmpeg from the system (the test media use its flite voice, x264 and AAC, which the npm-shipped static
//   ffmpeg 4.1 lacks: no flite), Chromium for the browser suite.
// - engine: fluidsynth with the General MIDI sound font (music), espeak-ng (speech) and sox (noise), the evaluation's
//   and the benchmark's material (`modules/audio-engine/eval/material.ts`). They run on either ffmpeg.
// The native addons (better-sqlite3, argon2) are built or downloaded by `npm install`, before this script can run:
// where no prebuilt binary can be downloaded they need python3, make and g++ (`docs/operations.md`).
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { npmChromiumAvailable, systemChromium, NPM_CHROMIUM, SYSTEM_CHROMIUM } from '../web/e2e/browser.mjs';

const SOUND_FONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';

/**
 * Every requirement: what is checked (a command on the PATH, a file, the browser) and the Debian packages that bring
 * it. `browser` can also be met by the npm-shipped Chromium.
 */
export const REQUIREMENTS = {
  test: [
    { name: 'ffmpeg', check: { command: 'ffmpeg' }, packages: ['ffmpeg'] },
    { name: 'chromium', check: { browser: true }, packages: ['chromium'] },
  ],
  engine: [
    { name: 'fluidsynth', check: { command: 'fluidsynth' }, packages: ['fluidsynth'] },
    {
      name: 'GM sound font',
      check: { file: process.env.KORA_SOUNDFONT ?? SOUND_FONT },
      packages: ['fluid-soundfont-gm'],
    },
    { name: 'espeak-ng', check: { command: 'espeak-ng' }, packages: ['espeak-ng'] },
    { name: 'sox', check: { command: 'sox' }, packages: ['sox'] },
  ],
};

function onPath(command, path = process.env.PATH ?? '') {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return dir !== '';
    } catch {
      return false;
    }
  });
}

/** Which of `requirements` the machine lacks now (the browser counts as present when the system has one). */
export function missingOn(requirements, probe = { onPath, existsSync, systemChromium }) {
  return requirements.filter(({ check }) => {
    if (check.command) return !probe.onPath(check.command);
    if (check.file) return !probe.existsSync(check.file);
    return !probe.systemChromium();
  });
}

/** `/etc/os-release` as `{ id, like }` (both lower case; `like` the ID_LIKE words). */
export function readOsRelease(text) {
  const field = (name) =>
    (new RegExp(`^${name}=(.*)$`, 'm').exec(text)?.[1] ?? '').replace(/^["']|["']$/g, '').toLowerCase();
  return { id: field('ID'), like: field('ID_LIKE').split(/\s+/).filter(Boolean) };
}

/**
 * The decision, with no side effect: given what is missing, the system (`os`: `{ id, like }` or null off Linux), the
 * user (`root`), whether `sudo -n` works and whether the npm-shipped Chromium is installed, returns
 * - `{ action: 'none', browser }` when nothing is to be done;
 * - `{ action: 'install', packages, run: [[...argv], ...] }`: the commands to run, then check again;
 * - `{ action: 'stop', message }`: what is missing and the one command that installs it.
 * `browser` says where the browser suite's Chromium comes from when the system has none: `npm`.
 */
export function plan({ missing, os, root, sudo, npmChromium }) {
  const debian = Boolean(os) && (os.id === 'debian' || os.id === 'ubuntu' || os.like.includes('debian'));
  // Ubuntu's `chromium` package is a stub that installs a snap, which containers and CI runners cannot run.
  const aptChromium = debian && os.id !== 'ubuntu' && !os.like.includes('ubuntu');
  const canInstall = debian && (root || sudo);
  const fromApt = (r) => debian && (!r.check.browser || aptChromium);
  let browser;
  let needed = missing;
  // The system's Chromium when one can be installed, else the npm-shipped one.
  if (missing.some((r) => r.check.browser && !(canInstall && aptChromium)) && npmChromium) {
    browser = 'npm';
    needed = missing.filter((r) => !r.check.browser);
  }
  const withBrowser = browser ? { browser } : {};
  if (needed.length === 0) return { action: 'none', ...withBrowser };
  const packages = [...new Set(needed.flatMap((r) => r.packages))];
  if (canInstall && needed.every(fromApt)) {
    const prefix = root ? [] : ['sudo', '-n'];
    return {
      action: 'install',
      packages,
      ...withBrowser,
      run: [
        [...prefix, 'apt-get', 'update', '-qq'],
        [...prefix, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
      ],
    };
  }
  const names = needed.map((r) => r.name).join(', ');
  if (needed.every(fromApt)) {
    // Debian or Ubuntu without the rights to install: the one command for someone who has them.
    return {
      action: 'stop',
      message:
        `missing ${names}. Install ${packages.length === 1 ? 'it' : 'them'} as root or through sudo, then run the command again:\n` +
        `  sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}'`,
    };
  }
  const browserHint = needed.some((r) => r.check.browser)
    ? ` For the browser suite, set CHROMIUM_PATH to a Chromium or Chrome binary` +
      (debian ? '' : `, or use x64 Linux, where \`npm install\` brings ${NPM_CHROMIUM}`) +
      '.'
    : '';
  return {
    action: 'stop',
    message:
      `missing ${names}: install ${packages.join(' ')} with the system's package manager ` +
      `(Debian: apt-get install -y ${packages.join(' ')}), then run the command again.${browserHint}`,
  };
}

function sudoWorks() {
  if (!onPath('sudo')) return false;
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

function main(argv) {
  const sets = argv.length > 0 ? argv : ['test'];
  const unknown = sets.filter((set) => !REQUIREMENTS[set]);
  if (unknown.length > 0) {
    console.error(`prerequisites: unknown set ${unknown.join(', ')} (known: ${Object.keys(REQUIREMENTS).join(', ')})`);
    return 2;
  }
  const requirements = sets.flatMap((set) => REQUIREMENTS[set]);
  const missing = missingOn(requirements);
  // apt-get from the PATH, else where Debian puts it; without one the system counts as not Debian.
  const aptGet = ['apt-get', '/usr/bin/apt-get'].find((c) => (c.includes('/') ? existsSync(c) : onPath(c)));
  const os =
    process.platform === 'linux' && aptGet && existsSync('/etc/os-release')
      ? readOsRelease(readFileSync('/etc/os-release', 'utf8'))
      : null;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const decision = plan({
    missing,
    os,
    root,
    sudo: missing.length > 0 && !root && sudoWorks(),
    npmChromium: npmChromiumAvailable(),
  });
  if (decision.action === 'stop') {
    console.error(`prerequisites (${sets.join(', ')}): ${decision.message}`);
    return 1;
  }
  if (decision.action === 'install') {
    console.error(`prerequisites (${sets.join(', ')}): installing ${decision.packages.join(' ')}`);
    for (const argv of decision.run) {
      const [command, ...args] = argv.map((word) => (word === 'apt-get' ? aptGet : word));
      try {
        execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      } catch (error) {
        console.error(`prerequisites: \`${argv.join(' ')}\` failed: ${error instanceof Error ? error.message : error}`);
        return 1;
      }
    }
    const still = missingOn(requirements).filter((r) => !(r.check.browser && decision.browser === 'npm'));
    if (still.length > 0) {
      console.error(`prerequisites: still missing after the install: ${still.map((r) => r.name).join(', ')}`);
      return 1;
    }
  }
  const browser = requirements.some((r) => r.check.browser)
    ? `; Chromium: ${systemChromium()?.path ?? `${NPM_CHROMIUM} (npm-shipped; no ${SYSTEM_CHROMIUM})`}`
    : '';
  console.error(`prerequisites (${sets.join(', ')}): ready${browser}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
