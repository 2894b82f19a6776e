import { createHash } from 'node:crypto';
import pg from 'pg';
import { lazyTransaction, type LazyTransaction } from './lazy-transaction.js';
import type { QueryOptions, SqlDatabase, SqlExecutor } from './sql-database.js';
import { serialQueue } from './serial-queue.js';
import { toStoreError } from './sql-errors.js';

/** Options of {@link createPgDatabase}: a pool you own, or a connection string. */
export type PgDatabaseOptions = (
  | {
      readonly pool: pg.Pool;
      readonly connectionString?: never;
      readonly maxConnections?: never;
      readonly connectionTimeoutMs?: never;
    }
  | {
      readonly connectionString: string;
      /** Connections in the pool. @default 10 */
      readonly maxConnections?: number;
      /** How long to wait for a connection before `store_unavailable`. @default 10000 */
      readonly connectionTimeoutMs?: number;
      readonly pool?: never;
    }
) & {
  /**
   * Run the statements of every transition as named prepared statements, planned once per
   * connection. Turn it off behind a pooler that cannot keep them (PgBouncer in
   * transaction mode before 1.21, or without `max_prepared_statements`). @default true
   */
  readonly preparedStatements?: boolean;
};

/** Statements on one connection, and the transaction it runs (none in a session). */
interface ConnectionExecutor extends SqlExecutor {
  /** Starts a transaction on the connection (`null`: a session, statements as they come). */
  open(transaction: LazyTransaction | null): void;
}

/**
 * Statements on one connection, one at a time in call order: callers may issue a
 * transaction's reads concurrently (the engine lists events with `Promise.all`), which `pg`
 * 8 only queues with a deprecation warning and `pg` 9 refuses.
 */
const executor = (client: pg.PoolClient, prepared: boolean): ConnectionExecutor => {
  const serial = serialQueue();
  let transaction: LazyTransaction | null = null;
  const send = async <Row>(text: string, params: readonly unknown[], options: QueryOptions) => {
    const result = await client.query<never>({
      text,
      values: params as unknown[],
      ...(prepared && options.prepare ? { name: statementName(text) } : {}),
    });
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  };
  return {
    open(next) {
      transaction = next;
    },
    query: <Row>(text: string, params: readonly unknown[] = [], options: QueryOptions = {}) =>
      serial(() =>
        transaction
          ? transaction.run(options, () => send<Row>(text, params, options))
          : send<Row>(text, params, options),
      ),
    script: (text) =>
      serial(async () => {
        const run = async () => void (await client.query(text));
        await (transaction ? transaction.run({}, run) : run());
      }),
    begun: () => transaction?.begun ?? false,
    takeWrite: (work) =>
      transaction?.takeWrite()
        ? work((text, params, options) => serial(() => send(text, params, options)))
        : undefined,
  };
};

/**
 * The name a statement is prepared under on each connection: derived from its text, so a
 * name never stands for two texts.
 */
/** The names of the statements prepared so far (their texts are few: one per shape). */
const statementNames = new Map<string, string>();

const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `programrun_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size >= 4_096) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
};

/**
 * A PostgreSQL server through a `pg` pool. Transactions run at READ COMMITTED: the store
 * gets its guarantees from unique keys, compare-and-swap on `version`, row locks with
 * `SKIP LOCKED` and advisory locks, so hosts never wait on each other for long.
 *
 * @example
 * ```ts
 * const database = createPgDatabase({ connectionString: 'postgres://localhost/programrun' });
 * ```
 */
export function createPgDatabase(options: PgDatabaseOptions): SqlDatabase {
  const owned = options.pool === undefined;
  const prepared = options.preparedStatements ?? true;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      // A host never waits forever for a connection or a server that stopped answering.
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    });
  // An idle client losing its server connection must not crash the host: the next
  // checkout reconnects, and the failing statement reports `store_unavailable`.
  if (owned) pool.on('error', () => undefined);
  // One executor per connection, kept while the pool keeps the connection: what is built
  // over it (the store's transaction operations) is built once per connection.
  const executors = new WeakMap<pg.PoolClient, ConnectionExecutor>();
  const executorOf = (client: pg.PoolClient): ConnectionExecutor => {
    let found = executors.get(client);
    if (!found) executors.set(client, (found = executor(client, prepared)));
    return found;
  };

  async function withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw toStoreError(error, 'cannot connect to PostgreSQL');
    }
    let broken = false;
    // A connection lost while checked out (the server restarted, a proxy dropped it) fails
    // the statement in flight; its `error` event must not crash the host as unhandled.
    const lost = () => undefined;
    client.on('error', lost);
    try {
      return await work(client);
    } catch (error) {
      broken = isConnectionError(error);
      throw error;
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }

  return {
    kind: 'postgres',
    transaction(work, options = {}) {
      return withClient(async (client) => {
        const sql = executorOf(client);
        const transaction = lazyTransaction(options.lazy ?? false, async () => {
          await client.query('BEGIN');
        });
        sql.open(transaction);
        try {
          const value = await work(sql);
          if (transaction.begun) await client.query('COMMIT');
          return value;
        } catch (error) {
          if (transaction.begun) await client.query('ROLLBACK').catch(() => undefined);
          throw toStoreError(error);
        } finally {
          sql.open(null);
        }
      });
    },
    session(work) {
      return withClient(async (client) => {
        try {
          return await work(executorOf(client));
        } catch (error) {
          throw toStoreError(error);
        }
      });
    },
    async close() {
      if (owned) await pool.end();
    },
  };
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code !== 'string' || code.startsWith('08') || code.startsWith('57P');
}
