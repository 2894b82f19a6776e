import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { redactDatabaseUrl } from '@programrun/store-postgres';

/** The PostgreSQL server the benchmark uses, and the schemas it made there. */
export interface BenchDatabase {
  readonly url: string;
  /** e.g. `PostgreSQL 15.18`. */
  readonly version: string;
  /** A fresh schema name for `purpose`, dropped by `dropSchemas`. */
  schema(purpose: string): string;
  /** Drops every schema handed out (and everything in them). */
  dropSchemas(): Promise<void>;
}

/**
 * Connects to `url` once to check the server answers; throws with a one-line reason when
 * it does not. Schemas are named `bench_<random>_<purpose>`, so runs never collide.
 *
 * @example
 * ```ts
 * const database = await openBenchDatabase(process.env.DATABASE_URL ?? DEFAULT_URL);
 * ```
 */
export async function openBenchDatabase(url: string): Promise<BenchDatabase> {
  const run = randomBytes(4).toString('hex');
  const schemas: string[] = [];
  const withClient = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  let version: string;
  try {
    version = await withClient(async (client) => {
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      return `PostgreSQL ${rows[0]!.server_version.split(' ')[0]!}`;
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `PostgreSQL is not reachable at ${redactDatabaseUrl(url)} (${reason}); start it or set DATABASE_URL`,
      { cause: error },
    );
  }
  return {
    url,
    version,
    schema(purpose) {
      const name = `bench_${run}_${purpose}`;
      schemas.push(name);
      return name;
    },
    async dropSchemas() {
      if (schemas.length === 0) return;
      await withClient((client) =>
        client.query(
          `DROP SCHEMA IF EXISTS ${schemas.map((name) => `"${name}"`).join(', ')} CASCADE`,
        ),
      );
    },
  };
}
