import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Jest runs each test file in its own realm, but a native addon is loaded once per worker process. better-sqlite3
 * hands its addon the `SqliteError` class of the first file that opens a database, so in every later file its errors
 * would not be `instanceof Error` (and the read store would stop recognising "no such table"). Re-arming the addon
 * makes the next database opened here hand over this file's class. Node caches the addon: this is the same object.
 */
const require = createRequire(__filename);
// The addon as the package's own loader finds it (a local build, else the prebuilt binary for this platform).
const { getBinding } = require(join(dirname(require.resolve('better-sqlite3/package.json')), 'lib', 'binding.js')) as {
  getBinding(nativeBinding?: unknown): { isInitialized?: boolean };
};
getBinding().isInitialized = false;
