// vitest `globalSetup` for suites that need PostgreSQL: PROGRAMRUN_TEST_DATABASE_URL when it
// is set (an existing server), else a private server started for this test run and stopped
// at its end. Test files (and the processes they spawn) read the URL from the environment.
import { startPrivatePostgres } from './private-postgres.js';
import { TEST_DATABASE_URL_VARIABLE } from './test-database-url.js';

/**
 * Starts the private server unless PROGRAMRUN_TEST_DATABASE_URL names one; returns the teardown.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['@programrun/test-postgres/vitest-global-setup'] } });
 * ```
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[TEST_DATABASE_URL_VARIABLE]) return undefined;
  const postgres = await startPrivatePostgres();
  process.env[TEST_DATABASE_URL_VARIABLE] = postgres.url;
  return async () => {
    delete process.env[TEST_DATABASE_URL_VARIABLE];
    await postgres.stop();
  };
}
