import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// One runner for the whole repository. Server code (backend, modules, projections) is compiled by SWC so
// Nest's decorator metadata survives; `development` resolves workspace packages to their TypeScript sources.
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [swc.vite({ tsconfigFile: './tsconfig.base.json' })],
        resolve: { conditions: ['development'] },
        ssr: { resolve: { conditions: ['development'] } },
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'backend/test/**/*.spec.ts',
            'modules/*/src/**/*.spec.ts',
            'modules/*/test/**/*.spec.ts',
            'projections/src/**/*.spec.ts',
          ],
          pool: 'forks',
          globalSetup: ['backend/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
