import { serverSwcOptions } from './scripts/swc-options.mjs';

// One runner for the whole repository, two projects. Server code (backend, modules, projections) is compiled by SWC
// with the build's own options, so Nest's decorator metadata survives; `development` resolves workspace packages to
// their TypeScript sources. Run through `npm run test:unit` (Node's VM modules let the built-in identity provider
// load oidc-provider, which is ESM-only, with a real `import()`).

/**
 * Packages that ship ESM only and that server code `require`s once compiled: Node 20 loads them with require(esm),
 * Jest (before Node 24.9) cannot, so they are compiled to CommonJS like our own code.
 */
const ESM_ONLY = ['jose', 'content-disposition'];

/**
 * The server project: also the base of the fault suite's config (`jest.faults.config.mjs`), which runs the same code
 * through the same transforms. Its `testMatch` takes `*.spec.ts` only, so the fault suite (`*.faults.ts`, real server
 * processes killed and disks filled) never runs with the unit suites.
 * @type {import('jest').Config}
 */
export const serverProject = {
  displayName: 'server',
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['development', 'node', 'node-addons'] },
  testMatch: [
    '<rootDir>/backend/test/**/*.spec.ts',
    '<rootDir>/modules/*/src/**/*.spec.ts',
    '<rootDir>/modules/*/test/**/*.spec.ts',
    '<rootDir>/projections/src/**/*.spec.ts',
    '<rootDir>/scripts/**/*.spec.mjs',
    '<rootDir>/web/e2e/**/*.spec.mjs',
  ],
  modulePathIgnorePatterns: ['<rootDir>/[^/]+/dist/', '<rootDir>/modules/[^/]+/dist/'],
  transform: {
    '^.+\\.ts$': ['<rootDir>/scripts/jest-transform.cjs', { ...serverSwcOptions, swcrc: false, sourceMaps: 'inline' }],
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: ['@swc/jest', { swcrc: false, jsc: { target: 'es2022' } }],
  },
  // Every other package stays as published, nested copies included (`@fastify/static/node_modules/...`).
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)(@[^/]+/)?[^/]+/(?!(.*/)?node_modules/)`],
  globalSetup: '<rootDir>/backend/test/global-setup.ts',
  globalTeardown: '<rootDir>/backend/test/global-teardown.ts',
  setupFiles: ['<rootDir>/backend/test/support/jest-realm.ts'],
};

/** @type {import('jest').Config} */
export default {
  // Jest reads the timeout from the root, for both projects: the server's processes, DSP and databases need it.
  testTimeout: 30_000,
  // One worker per core: the server specs wait on child processes (ffmpeg, the server) as much as they compute, so
  // Jest's default of one core less would leave a 2-core machine running the files one by one (3 min 44 s, against
  // 1 min 42 s with two workers).
  maxWorkers: '100%',
  projects: [serverProject, '<rootDir>/web/jest.config.mjs'],
};
