// Which Chromium the browser suite (and bench:web) drives, decided in one place, also read by
// `scripts/prerequisites.mjs`: CHROMIUM_PATH when set, else the system's (Debian's /usr/bin/chromium), else the one the
// `@sparticuz/chromium` dev dependency ships (a brotli-packed headless Chromium for x64 Linux, unpacked to the temp
// directory on first use), for machines where no system Chromium can be installed (no root, no sudo, not Debian).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
export const NPM_CHROMIUM = '@sparticuz/chromium';

/** CHROMIUM_PATH as given, else the system's Chromium when installed; undefined otherwise. */
export function systemChromium(env = process.env, system = SYSTEM_CHROMIUM) {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, source: 'env' };
  if (existsSync(system)) return { path: system, source: 'system' };
  return undefined;
}

/** Whether the npm-shipped Chromium is installed and can run here (its binaries are for Linux on x64). */
export function npmChromiumAvailable() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return false;
  try {
    createRequire(import.meta.url).resolve(NPM_CHROMIUM);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium to launch: `{ path, source }` with source `env`, `system` or `npm`. Throws with the command that
 * installs one when there is none (`npm test` installs it first: `scripts/prerequisites.mjs`).
 */
export async function chromiumExecutable(env = process.env, systemPath = SYSTEM_CHROMIUM) {
  const system = systemChromium(env, systemPath);
  if (system) return system;
  if (npmChromiumAvailable()) {
    const { default: chromium } = await import(NPM_CHROMIUM);
    return { path: await chromium.executablePath(), source: 'npm' };
  }
  throw new Error(
    `No Chromium: none at ${SYSTEM_CHROMIUM}, CHROMIUM_PATH unset and ${NPM_CHROMIUM} not installed. ` +
      'Install one (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH; `npm test` does it for you.',
  );
}
