import { unsupportedRuntime } from './supported-runtime';

// Imported first by every entry point (the server, the worker, the command lines), before anything loads the SQLite
// driver: on a runtime too old for it the process ends here, with one line, instead of a native crash later.
const problem = unsupportedRuntime(process.version, process.versions.napi);
if (problem) {
  console.error(problem);
  process.exit(1);
}
