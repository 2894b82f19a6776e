// Below the store's guard: a value PostgreSQL itself refuses still surfaces as an
// `unstorable_value` StoreError, on PGlite and on a real server, never as a raw SQL error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreError } from '@programrun/engine';
import { createPgDatabase, createPGliteDatabase, type SqlDatabase } from '../src/index.js';
import { TEST_DATABASE_URL } from './support/test-database.js';

const databases: Record<string, SqlDatabase> = {};
beforeAll(async () => {
  databases.pglite = await createPGliteDatabase();
  databases.postgres = createPgDatabase({ connectionString: TEST_DATABASE_URL, maxConnections: 1 });
});
afterAll(async () => {
  for (const database of Object.values(databases)) await database.close();
});

describe.each(['pglite', 'postgres'])('SQL errors on %s', (name) => {
  it.each([
    ['NUL in text', 'SELECT $1::text AS value', 'a\u0000b'],
    ['an integer beyond its column', 'SELECT $1::integer AS value', 2 ** 31],
  ])('turns %s into unstorable_value', async (_what, statement, value) => {
    const error = await databases[name]!.transaction((sql) => sql.query(statement, [value])).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isStoreError(error, 'unstorable_value'), String(error)).toBe(true);
  });
});
