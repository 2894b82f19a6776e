// Where the PostgreSQL suites run: PROGRAMRUN_TEST_DATABASE_URL when it names a server, else
// the private server this package's vitest globalSetup starts for the test run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testDatabaseUrl } from '@programrun/test-postgres';
import { createPostgresStore, type PostgresStoreOptions, type SqlStore } from '../../src/index.js';

/** The test server's URL. */
export const TEST_DATABASE_URL = testDatabaseUrl();

/** A fresh schema name, so each test starts from an empty database. */
export const freshSchema = (): string => `t_${randomBytes(6).toString('hex')}`;

/** A store on a fresh schema of the test server; closing it drops the schema. */
export async function createTestPostgresStore(
  options: Omit<PostgresStoreOptions, 'connectionString' | 'schema'> = {},
): Promise<SqlStore> {
  const schema = freshSchema();
  const store = await createPostgresStore({
    connectionString: TEST_DATABASE_URL,
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
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
