import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The fault suite (`npm run test:faults`): three servers on a PostgreSQL cluster and a Redis of its own,
 * faults injected one at a time. Not a project of the root config, so `npm test` never runs it.
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, '../../../..'),
  test: {
    include: ['apps/server/test/faults/**/*.faults.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
