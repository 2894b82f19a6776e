// The one place suites read the test server's address from.

/** The variable that names an existing PostgreSQL server for the suites. */
export const TEST_DATABASE_URL_VARIABLE = 'PROGRAMRUN_TEST_DATABASE_URL';

/**
 * The test server's URL: set by the caller, or by the global setup's private server.
 * Throws a clear error when a suite runs without that setup.
 *
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString: testDatabaseUrl() });
 * ```
 */
export function testDatabaseUrl(): string {
  const url = process.env[TEST_DATABASE_URL_VARIABLE];
  if (!url)
    throw new Error(
      `${TEST_DATABASE_URL_VARIABLE} is not set: run this suite through its vitest config (its globalSetup starts a private PostgreSQL) or point the variable at a server`,
    );
  return url;
}
