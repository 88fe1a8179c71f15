import { serverProject } from './jest.config.mjs';

// `npm run test:faults`: the fault suite against a real server process (backend/test/faults), apart from the unit
// suites because it kills and restarts servers and fills a disk. The server project's settings (SWC transforms,
// `development` resolution, the global setup that builds the server once, the realm setup), with its own files, one
// at a time (`--runInBand` in the script; one worker here too, so a bare `jest --config` runs them in order as well).
/** @type {import('jest').Config} */
export default {
  ...serverProject,
  displayName: 'faults',
  testMatch: ['<rootDir>/backend/test/faults/**/*.faults.ts'],
  maxWorkers: 1,
  // Jest has one timeout for tests and hooks: the fault file gives its hooks 60 s itself, as Vitest's hookTimeout did.
  testTimeout: 120_000,
};
