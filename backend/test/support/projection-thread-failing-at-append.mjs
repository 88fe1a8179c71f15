// A projections thread that says it started, projects nothing, and exits at the first append it is told of
// (projection-thread.spec.ts).
import { parentPort, workerData } from 'node:worker_threads';

const appends = new Int32Array(workerData.appends);
const seen = Atomics.load(appends, 0);
parentPort.postMessage({ kind: 'started' });
const wait = Atomics.waitAsync(appends, 0, seen);
(wait.async ? wait.value : Promise.resolve()).then(() => process.exit(3));
