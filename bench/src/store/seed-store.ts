import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  createPGliteDatabase,
  createPgDatabase,
  migrate,
  quoteSchema,
  type SqlDatabase,
} from '@programrun/store-postgres';
import type { CapturedCreate } from './create-template.js';
import type { SeededStore } from './growth.js';
import { seedRuns } from './seed.js';

/** The stores the benchmark compares. */
export type StoreKind = 'pglite' | 'postgres';

/** A seeded store and how long seeding took. */
export interface SeedResult extends SeededStore {
  readonly seconds: number;
}

/**
 * Migrates the store a host environment names (PGlite `DATA_DIR`, or PostgreSQL
 * `DATABASE_URL` and `SCHEMA`) and seeds `runs` copies of the captured create into it,
 * before any host opens it.
 *
 * @example
 * ```ts
 * const seeded = await seedStore({ STORE: 'pglite', DATA_DIR: dir }, 100_000, captured);
 * ```
 */
export async function seedStore(
  env: Record<string, string>,
  runs: number,
  captured: CapturedCreate,
): Promise<SeedResult> {
  const pglite = env.STORE === 'pglite';
  const schema = pglite ? 'programrun' : env.SCHEMA!;
  if (pglite) mkdirSync(env.DATA_DIR!, { recursive: true });
  const database: SqlDatabase = pglite
    ? await createPGliteDatabase({ dataDir: join(env.DATA_DIR!, 'pglite') })
    : createPgDatabase({ connectionString: env.DATABASE_URL!, maxConnections: 1 });
  const started = performance.now();
  try {
    await migrate(database, { schema });
    await seedRuns(database, quoteSchema(schema), captured, 0, runs);
  } finally {
    await database.close();
  }
  return { runs, env, seconds: (performance.now() - started) / 1000 };
}
