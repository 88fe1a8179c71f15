import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// `npm run test:faults`: the fault suite against a real server process (backend/test/faults), apart from the unit
// suites because it kills and restarts servers and fills a disk. One file at a time, in order.
export default defineConfig({
  plugins: [swc.vite({ tsconfigFile: './tsconfig.base.json' })],
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'faults',
    environment: 'node',
    include: ['backend/test/faults/**/*.faults.ts'],
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['backend/test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
