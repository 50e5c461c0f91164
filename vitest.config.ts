import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/ui/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real engines and servers; two cores are shared, so keep parallelism modest.
    maxWorkers: 2,
    pool: 'forks',
  },
});
