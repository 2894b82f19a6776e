// Contract, migration, crash and two-host suites share one PostgreSQL server
// (PROGRAMRUN_TEST_DATABASE_URL, else a private one the global setup starts for this test
// run): files run one at a time so the crash rounds are not starved of the machine's two cores.
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      fileParallelism: false,
      globalSetup: ['@programrun/test-postgres/vitest-global-setup'],
    },
  }),
);
