/** Rows a statement returned, and how many rows it changed. */
export interface SqlResult<Row> {
  readonly rows: Row[];
  readonly rowCount: number;
}

/** How a statement is run. */
export interface QueryOptions {
  /**
   * Prepare the statement once per connection and reuse its plan (a named prepared
   * statement on PostgreSQL, unless the database was opened without them): for the
   * statements of every transition, whose text never varies with their values.
   */
  readonly prepare?: boolean;
}

/** The options of a statement every transition or request runs (prepared once per connection). */
export const PREPARED: QueryOptions = { prepare: true };

/** Runs statements on one connection (inside a transaction, or a session for migrations). */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<SqlResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  script(text: string): Promise<void>;
}

/**
 * What the store needs from a database: transactions, a session for migrations, and
 * close. Implemented over `pg` (many connections) and PGlite (one embedded connection),
 * so both run exactly the same SQL.
 *
 * @example
 * ```ts
 * const database = createPgDatabase({ connectionString: process.env.DATABASE_URL! });
 * await database.transaction((sql) => sql.query('SELECT 1'));
 * ```
 */
export interface SqlDatabase {
  /** `postgres` or `pglite`. */
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` between BEGIN and COMMIT; rolls back when it throws. */
  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs `work` on one connection outside any transaction (advisory session locks). */
  session<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
