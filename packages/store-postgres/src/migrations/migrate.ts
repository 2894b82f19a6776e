import { createHash } from 'node:crypto';
import type { SqlDatabase } from '../sql/sql-database.js';
import { quoteSchema } from '../sql/schema-name.js';
import type { Migration } from './migration.js';
import { MIGRATIONS } from './migrations.js';
import { MigrationError } from './migration-error.js';

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** PostgreSQL schema holding the tables. @default 'programrun' */
  readonly schema?: string;
  /** Stop after this version (tests of upgrades from an older schema). @default the latest */
  readonly to?: number;
  /** The migration list. @default MIGRATIONS */
  readonly migrations?: readonly Migration[];
}

/** What {@link migrate} did. */
export interface MigrateResult {
  /** Versions applied by this call, in order (empty when the schema was current). */
  readonly applied: readonly number[];
  /** The schema version now. */
  readonly version: number;
}

const checksum = (migration: Migration): string =>
  `sha256:${createHash('sha256').update(migration.sql('"$schema"')).digest('hex')}`;

/**
 * Brings the schema to the latest version (or `to`). Safe to run from several hosts at
 * once: a session advisory lock per schema lets one migrate while the others wait, then
 * find nothing left to do. Each migration commits with its history row, so a crash
 * mid-way resumes at the first migration not recorded. Refuses a database whose history
 * has a migration this code does not know or whose checksum changed.
 *
 * @example
 * ```ts
 * const { applied, version } = await migrate(database); // { applied: [1, 2, 3], version: 3 }
 * ```
 */
export async function migrate(
  database: SqlDatabase,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const schemaName = options.schema ?? 'programrun';
  const schema = quoteSchema(schemaName);
  const migrations = options.migrations ?? MIGRATIONS;
  const target = options.to ?? migrations.at(-1)?.version ?? 0;
  return database.session(async (sql) => {
    const lockKey = `programrun:migrate:${schemaName}`;
    await sql.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
    try {
      // Checked first, so a role without CREATE on the database can run a migrated schema.
      const { rows: present } = await sql.query<{ schema: boolean; history: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema,
                to_regclass($2) IS NOT NULL AS history`,
        [schemaName, `${schema}.schema_migrations`],
      );
      if (!present[0]?.schema) await sql.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      if (!present[0]?.history)
        await sql.query(
          `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          checksum text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`,
        );
      const { rows } = await sql.query<{ version: number; name: string; checksum: string }>(
        `SELECT version, name, checksum FROM ${schema}.schema_migrations ORDER BY version`,
      );
      const known = new Map(migrations.map((migration) => [migration.version, migration]));
      for (const row of rows) {
        const migration = known.get(row.version);
        if (!migration) {
          throw new MigrationError(
            'schema_too_new',
            `schema ${schemaName} is at version ${rows.at(-1)!.version} (${row.name}), newer than this @programrun/store-postgres knows (${migrations.at(-1)?.version ?? 0}); upgrade the package on this host`,
          );
        }
        if (checksum(migration) !== row.checksum) {
          throw new MigrationError(
            'migration_changed',
            `migration ${row.version} (${row.name}) in schema ${schemaName} was applied with different SQL than this package ships; published migrations must not change`,
          );
        }
      }
      const done = new Set(rows.map((row) => row.version));
      const applied: number[] = [];
      for (const migration of migrations) {
        if (migration.version > target || done.has(migration.version)) continue;
        await sql.query('BEGIN');
        try {
          await sql.script(migration.sql(schema));
          await sql.query(
            `INSERT INTO ${schema}.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)`,
            [migration.version, migration.name, checksum(migration)],
          );
          await sql.query('COMMIT');
        } catch (error) {
          await sql.query('ROLLBACK');
          throw new MigrationError(
            'migration_failed',
            `migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        }
        applied.push(migration.version);
      }
      const version = Math.max(0, ...done, ...applied);
      return { applied, version };
    } finally {
      await sql.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]);
    }
  });
}
