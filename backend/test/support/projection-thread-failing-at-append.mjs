// A projections thread that says it started, projects nothing, and at the first append it is told of takes the
// process's write lock and exits holding it (projection-thread.spec.ts).
import { parentPort, workerData } from 'node:worker_threads';

const appends = new Int32Array(workerData.appends);
const lock = new Int32Array(workerData.threadLock);
const seen = Atomics.load(appends, 0);
parentPort.on('message', () => undefined); // keeps the thread alive: a pending waitAsync does not
parentPort.postMessage({ kind: 'started' });
const wait = Atomics.waitAsync(appends, 0, seen);
(wait.async ? wait.value : Promise.resolve()).then(async () => {
  while (Atomics.compareExchange(lock, 0, 0, 2) !== 0) await new Promise((resolve) => setTimeout(resolve, 1));
  process.exit(3);
});
