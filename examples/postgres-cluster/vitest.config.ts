// Tests boot real host processes (and migrate a fresh schema): generous hook timeouts. The
// PostgreSQL server is PROGRAMRUN_TEST_DATABASE_URL, else a private one for this test run.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@programrun/source'] },
  ssr: { resolve: { conditions: ['@programrun/source'] } },
  test: {
    include: ['*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['@programrun/test-postgres/vitest-global-setup'],
  },
});
