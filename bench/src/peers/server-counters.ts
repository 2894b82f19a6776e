// What the PostgreSQL server did between two samples, read on the server itself so both
// sides are counted the same way: statements from pg_stat_statements (calls in this
// database, without BEGIN/COMMIT/ROLLBACK and the probe's own query), write commits as
// transaction ids handed out (pg_snapshot_xmax of the current snapshot, which takes
// none itself: read-only transactions get no id and need no WAL flush), WAL bytes from
// pg_current_wal_lsn(), and the server's CPU from /proc. pg_stat_database's xact_commit
// is not used: backends publish it lazily (up to 10 s late), so it cannot be cut at a
// window's edge. A server without pg_stat_statements falls back to counting statements in
// this process (client-statements.ts).
import pg from 'pg';
import { countClientStatements, type ClientStatements } from './client-statements.js';
import { postgresCpu, type PostgresCpu } from './postgres-cpu.js';

/** One reading of the server's counters. */
export interface ServerSample {
  readonly statements: number;
  readonly xid: bigint;
  readonly walLsn: bigint;
  /** The server's CPU seconds so far; NaN when its processes are not visible here. */
  readonly cpuSeconds: number;
}

/** What the server did between two samples. */
export interface ServerDelta {
  readonly statements: number;
  /** Transactions that wrote (each one a WAL flush at commit). */
  readonly writeCommits: number;
  readonly walBytes: number;
  readonly cpuSeconds: number;
}

/** The probe: one connection of its own that reads the counters. */
export interface ServerCounters {
  /** Where statements are counted: `pg_stat_statements` or `client`. */
  readonly statementSource: 'pg_stat_statements' | 'client';
  /** The postmaster's pid when its CPU is readable here. */
  readonly postmasterPid: number | undefined;
  sample(): Promise<ServerSample>;
  close(): Promise<void>;
}

const PROBE = '/* bench-peers probe */';
const STATEMENTS = `${PROBE} SELECT
  pg_current_wal_lsn()::text AS lsn,
  pg_snapshot_xmax(pg_current_snapshot())::text AS xid,
  (SELECT coalesce(sum(calls), 0)::text FROM pg_stat_statements s
    WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND s.query !~* '^\\s*(BEGIN|START\\s+TRANSACTION|COMMIT|END|ROLLBACK)\\M'
      AND s.query NOT LIKE '%bench-peers probe%') AS statements`;
const NO_STATEMENTS = `${PROBE} SELECT pg_current_wal_lsn()::text AS lsn,
  pg_snapshot_xmax(pg_current_snapshot())::text AS xid, '0' AS statements`;

/** `16/B374D848` as a byte position. */
function lsnBytes(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * Connects the probe; sets up pg_stat_statements in the database when the server loaded
 * it, else wraps `pg` in this process (call this before any side sends a query).
 *
 * @example
 * ```ts
 * const counters = await openServerCounters(url, ['@programrun/store-postgres']);
 * const before = await counters.sample();
 * ```
 */
export async function openServerCounters(
  url: string,
  pgUsers: readonly string[],
): Promise<ServerCounters> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  let clientStatements: ClientStatements | undefined;
  // The extension only answers when the server preloaded its library; only then is it
  // created (a server given through DATABASE_URL keeps it afterwards).
  const preloaded = await client.query<{ libraries: string }>(
    "SELECT current_setting('shared_preload_libraries') AS libraries",
  );
  try {
    if (!/\bpg_stat_statements\b/.test(preloaded.rows[0]!.libraries)) throw new Error('not loaded');
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
  } catch {
    clientStatements = countClientStatements(pgUsers);
  }
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const cpu: PostgresCpu | undefined = postgresCpu(rows[0]!.pid);
  const text = clientStatements ? NO_STATEMENTS : STATEMENTS;
  let probes = 0; // the probe's own queries, when they are counted in this process
  return {
    statementSource: clientStatements ? 'client' : 'pg_stat_statements',
    postmasterPid: cpu?.pid,
    async sample() {
      const cpuSeconds = cpu ? cpu.seconds() : Number.NaN;
      const result = await client.query<{ lsn: string; xid: string; statements: string }>(text);
      const row = result.rows[0]!;
      probes += 1;
      return {
        statements: clientStatements ? clientStatements.count() - probes : Number(row.statements),
        xid: BigInt(row.xid),
        walLsn: lsnBytes(row.lsn),
        cpuSeconds,
      };
    },
    close: () => client.end(),
  };
}

/** `after` − `before`. */
export function serverDelta(before: ServerSample, after: ServerSample): ServerDelta {
  return {
    statements: after.statements - before.statements,
    writeCommits: Number(after.xid - before.xid),
    walBytes: Number(after.walLsn - before.walLsn),
    cpuSeconds: after.cpuSeconds - before.cpuSeconds,
  };
}
