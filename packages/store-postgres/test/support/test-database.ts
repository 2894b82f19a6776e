// Where the PostgreSQL suites run: PROGRAMRUN_TEST_DATABASE_URL (set by .ci/postgres.sh).
// Without it they are skipped locally and fail in CI, which must run them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresStore, type PostgresStoreOptions, type SqlStore } from '../../src/index.js';

/** The test server's URL, or undefined when none is configured (outside CI). */
export const TEST_DATABASE_URL = process.env.PROGRAMRUN_TEST_DATABASE_URL;

if (TEST_DATABASE_URL === undefined && process.env.CI) {
  throw new Error(
    'PROGRAMRUN_TEST_DATABASE_URL is not set: CI must run the PostgreSQL suites (source .ci/postgres.sh)',
  );
}

/** A fresh schema name, so each test starts from an empty database. */
export const freshSchema = (): string => `t_${randomBytes(6).toString('hex')}`;

/** A store on a fresh schema of the test server; closing it drops the schema. */
export async function createTestPostgresStore(
  options: Omit<PostgresStoreOptions, 'connectionString' | 'schema'> = {},
): Promise<SqlStore> {
  const schema = freshSchema();
  const store = await createPostgresStore({
    connectionString: TEST_DATABASE_URL!,
    schema,
    ...options,
  });
  return {
    ...store,
    async close() {
      await store.close();
      await dropSchema(schema);
    },
  };
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL! });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
