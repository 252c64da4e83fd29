import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on CI: a few forks keep servers-per-test from starving each other.
    pool: 'forks',
    maxWorkers: 2,
  },
});
