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
  /**
   * A plain read (no row or advisory lock, no write): in a lazy transaction it runs before
   * BEGIN, which waits for the first statement that needs it.
   */
  readonly read?: boolean;
  /**
   * One statement that is a whole write by itself: in a lazy transaction that has not
   * begun, it commits on its own, and only reads may follow it.
   */
  readonly autocommit?: boolean;
}

/** The options of a statement every transition or request runs (prepared once per connection). */
export const PREPARED: QueryOptions = { prepare: true };

/** A plain read every transition or request runs (prepared, and allowed before BEGIN). */
export const PREPARED_READ: QueryOptions = { prepare: true, read: true };

/** A whole write in one statement (prepared, and committing by itself before any BEGIN). */
export const PREPARED_WRITE: QueryOptions = { prepare: true, autocommit: true };

/** Options of {@link SqlDatabase.transaction}. */
export interface SqlTransactionOptions {
  /**
   * BEGIN waits for the first statement that needs it: reads before it run on their own,
   * and an `autocommit` statement before it commits by itself (see `LazyTransaction`).
   * @default false
   */
  readonly lazy?: boolean;
}

/** Sends one statement on a connection, whatever transaction bookkeeping it is in. */
export type SendStatement = <Row = Record<string, unknown>>(
  text: string,
  params: readonly unknown[],
  options: QueryOptions,
) => Promise<SqlResult<Row>>;

/** Runs statements on one connection (inside a transaction, or a session for migrations). */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<SqlResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  script(text: string): Promise<void>;
  /** Whether the running transaction sent BEGIN (a lazy one may not); false in a session. */
  begun(): boolean;
  /**
   * When the running transaction is lazy and has sent nothing but reads, takes its one
   * write: runs `work` with `send` (statements on this connection, each committing by
   * itself), and the transaction refuses any write after. Undefined, running nothing,
   * when the transaction cannot give its write away (eager, begun, already written) or
   * the executor cannot (a wrapper): the write then goes through `query`.
   */
  takeWrite?<T>(work: (send: SendStatement) => Promise<T>): Promise<T> | undefined;
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
  /**
   * Runs `work` between BEGIN and COMMIT; rolls back when it throws. A lazy transaction
   * sends BEGIN only when a statement needs it (and COMMIT only then).
   */
  transaction<T>(
    work: (sql: SqlExecutor) => Promise<T>,
    options?: SqlTransactionOptions,
  ): Promise<T>;
  /** Runs `work` on one connection outside any transaction (advisory session locks). */
  session<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
