/**
 * The Node.js Kora runs on. Its SQLite driver (better-sqlite3 13) is a Node-API 10 addon, which Node has had since
 * 22.14: on an older Node it does not fail cleanly, it ends the process with a segmentation fault. So every entry
 * point imports `./refuse-unsupported-runtime` first, and an older runtime is refused with one line that says what to
 * install. The lines tested are in `scripts/node-lines.mjs` (the whole suite on the current LTS, a smoke on the others).
 */
export const NODE_API_NEEDED = 10;
export const OLDEST_NODE = '22.14';
export const SUPPORTED_LINES = '22, 24 or 26';

/** Why this runtime cannot run Kora, in one line; null when it can. */
export function unsupportedRuntime(version: string, nodeApi: string | undefined): string | null {
  if (Number(nodeApi ?? 0) >= NODE_API_NEEDED) return null;
  return (
    `Kora needs Node.js ${OLDEST_NODE} or later (an LTS line: ${SUPPORTED_LINES}; 24 recommended), ` +
    `and this is Node.js ${version}: install one from https://nodejs.org or with your version manager (nvm install 24).`
  );
}
