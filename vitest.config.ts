import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The hardening suite's report table (issue 6) prints after the run; silent when none ran.
    reporters: ['default', './tests/hardening/table-reporter.ts'],
    exclude: ['tests/ui/**', 'node_modules/**'],
    // The CLI bundle the tests' engines run (`npm run build:cli`), built when stale.
    globalSetup: ['tests/helpers/build-bundle.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real engines and servers; two cores are shared, so keep parallelism modest.
    maxWorkers: 2,
    pool: 'forks',
  },
});
