// The web client's unit and component tests, in jsdom (see src/test/environment.cjs); TypeScript and JSX through SWC.
/** @type {import('jest').Config} */
export default {
  displayName: 'web',
  testEnvironment: '<rootDir>/src/test/environment.cjs',
  testEnvironmentOptions: { url: 'http://localhost:3000' },
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  // A feature's own stylesheet (imported beside its component) means nothing to jsdom.
  moduleNameMapper: { '\\.css$': '<rootDir>/src/test/style-stub.cjs' },
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        swcrc: false,
        sourceMaps: 'inline',
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' }, useDefineForClassFields: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
};
