// The box's commit limit, for scale: one INSERT of a small row in BEGIN … COMMIT per
// operation, on one table of its own schema, through `pg` clients of their own (one per
// starter, so 1 and 16 clients), on the same server and the same durability settings.
import pg from 'pg';
import type { Workflow } from './window.js';

/** One-insert transactions, one client per lane. */
export interface RawSide {
  readonly insert: Workflow;
  close(): Promise<void>;
}

/**
 * Creates `"<schema>".peers_raw` and connects `clients` clients.
 *
 * @example
 * ```ts
 * const raw = await openRawSide(url, 'bench_x_raw', 16);
 * await raw.insert(0);
 * ```
 */
export async function openRawSide(url: string, schema: string, clients: number): Promise<RawSide> {
  const connected = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
      await client.connect();
      return client;
    }),
  );
  const table = `"${schema}".peers_raw`;
  await connected[0]!.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await connected[0]!.query(
    `CREATE TABLE ${table} (id bigserial PRIMARY KEY, lane int NOT NULL, body jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
  );
  const insert = `INSERT INTO ${table} (lane, body) VALUES ($1, $2)`;
  return {
    async insert(lane) {
      const client = connected[lane]!;
      await client.query('BEGIN');
      try {
        await client.query(insert, [lane, { outcome: 'confirmed', ok: true }]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    close: async () => void (await Promise.all(connected.map((client) => client.end()))),
  };
}
