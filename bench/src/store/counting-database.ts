import type { SqlDatabase, SqlExecutor } from '@programrun/store-postgres';

/** Statements and transactions a database was asked for. */
export interface SqlCounts {
  transactions: number;
  /** Statements inside transactions and sessions, not counting BEGIN and COMMIT. */
  statements: number;
}

/**
 * Wraps a database to count its transactions and statements: each statement is one
 * round trip to PostgreSQL, and each transaction adds two more (BEGIN, COMMIT).
 *
 * @example
 * ```ts
 * const counts = { transactions: 0, statements: 0 };
 * const store = createSqlStore(countingDatabase(database, counts), '"bench"');
 * ```
 */
export function countingDatabase(database: SqlDatabase, counts: SqlCounts): SqlDatabase {
  const counting = (sql: SqlExecutor): SqlExecutor => ({
    query(text, params) {
      counts.statements += 1;
      return sql.query(text, params);
    },
    script(text) {
      counts.statements += 1;
      return sql.script(text);
    },
  });
  return {
    kind: database.kind,
    transaction(work) {
      counts.transactions += 1;
      return database.transaction((sql) => work(counting(sql)));
    },
    session: (work) => database.session((sql) => work(counting(sql))),
    close: () => database.close(),
  };
}
