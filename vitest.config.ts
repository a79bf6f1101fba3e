import { defineConfig } from 'vitest/config';

/**
 * unit: pure logic (contract, server services, web lib) — fast, no I/O.
 * api: the server through app.inject on in-memory PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 * browser: the built web app served by the real server, driven in Debian Chromium by playwright-core.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/contract/src/**/*.test.ts', 'apps/server/src/**/*.unit.test.ts', 'apps/web/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: ['apps/server/src/**/*.unit.test.ts', '**/node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 240_000,
          pool: 'forks',
          // One file at a time, each in its own fresh process: every file starts its own server and browser.
          maxWorkers: 1,
          fileParallelism: false,
          // A page loads, signs in and subscribes before its first price shows (1.0-1.5 s measured on
          // this machine); polls wait up to 5 s for what a trader would see, instead of vitest's 1 s.
          expect: { poll: { timeout: 5_000 } },
        },
      },
    ],
  },
});
