import type pg from 'pg';
import { migrate } from './migrations/migrate.js';
import { createPgDatabase } from './sql/pg-database.js';
import { quoteSchema } from './sql/schema-name.js';
import { createSqlStore, type SqlStore } from './sql-store.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/database`; or pass `pool`. */
  readonly connectionString?: string;
  /** A `pg` pool you own (the store does not end it on close). */
  readonly pool?: pg.Pool;
  /** Connections of the pool the store creates. @default 10 */
  readonly maxConnections?: number;
  /** PostgreSQL schema of the tables. @default 'programrun' */
  readonly schema?: string;
  /** Apply pending migrations before returning (safe from several hosts at once). @default true */
  readonly migrate?: boolean;
  /**
   * Run the statements of every transition as named prepared statements, planned once per
   * connection (about half the server's CPU per transition). Turn it off behind a pooler
   * that cannot keep them (PgBouncer in transaction mode before 1.21, or without
   * `max_prepared_statements`). @default true
   */
  readonly preparedStatements?: boolean;
}

/**
 * The store on a PostgreSQL server: what many hosts share. Migrates the schema on start
 * (one host at a time, the others wait), then answers Store spec v1.
 *
 * @example
 * ```ts
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL!, maxConnections: 8 });
 * const engine = createEngine({ store, scenarios });
 * ```
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<SqlStore> {
  const schema = options.schema ?? 'programrun';
  const quoted = quoteSchema(schema);
  if (options.pool === undefined && options.connectionString === undefined) {
    throw new TypeError('createPostgresStore needs connectionString or pool');
  }
  const prepared =
    options.preparedStatements === undefined
      ? {}
      : { preparedStatements: options.preparedStatements };
  const database = createPgDatabase(
    options.pool
      ? { pool: options.pool, ...prepared }
      : {
          connectionString: options.connectionString!,
          ...(options.maxConnections === undefined
            ? {}
            : { maxConnections: options.maxConnections }),
          ...prepared,
        },
  );
  try {
    if (options.migrate !== false) await migrate(database, { schema });
  } catch (error) {
    await database.close();
    throw error;
  }
  return createSqlStore(database, quoted);
}
