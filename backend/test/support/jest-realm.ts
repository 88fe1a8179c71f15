import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Jest runs each test file in its own realm, but a native addon is loaded once per worker process. better-sqlite3
 * hands its addon the `SqliteError` class of the first file that opens a database, so in every later file its errors
 * would not be `instanceof Error` (and the read store would stop recognising "no such table"). Re-arming the addon
 * makes the next database opened here hand over this file's class. Node caches the addon: this is the same object.
 */
const require = createRequire(__filename);
const addon = require(
  join(dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node'),
);
(addon as { isInitialized?: boolean }).isInitialized = false;
