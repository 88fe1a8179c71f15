// A projections thread that says it started, projects nothing, and exits at the first append it is told of
// (projection-thread.spec.ts).
import { parentPort } from 'node:worker_threads';

parentPort.postMessage({ kind: 'started' });
parentPort.on('message', (message) => {
  if (message.kind === 'appended') process.exit(3);
});
