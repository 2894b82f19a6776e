import type { SqlDatabase, SqlExecutor } from '@programrun/store-postgres';

/** Statements and transactions a database was asked for. */
export interface SqlCounts {
  transactions: number;
  /** Statements inside transactions and sessions, not counting BEGIN and COMMIT. */
  statements: number;
}

/**
 * Wraps a database to count its transactions and statements: each statement is one
 * round trip to PostgreSQL, and each transaction that sent BEGIN adds two more (BEGIN,
 * COMMIT; a lazy one whose only write committed by itself sends neither).
 *
 * @example
 * ```ts
 * const counts = { transactions: 0, statements: 0 };
 * const store = createSqlStore(countingDatabase(database, counts), '"bench"');
 * ```
 */
export function countingDatabase(database: SqlDatabase, counts: SqlCounts): SqlDatabase {
  const counting = (sql: SqlExecutor): SqlExecutor => ({
    query(text, params, options) {
      counts.statements += 1;
      return sql.query(text, params, options);
    },
    script(text) {
      counts.statements += 1;
      return sql.script(text);
    },
    begun: () => sql.begun(),
  });
  return {
    kind: database.kind,
    transaction(work, options) {
      return database.transaction(async (sql) => {
        try {
          return await work(counting(sql));
        } finally {
          if (sql.begun()) counts.transactions += 1;
        }
      }, options);
    },
    session: (work) => database.session((sql) => work(counting(sql))),
    close: () => database.close(),
  };
}
