import type { Span } from '@opentelemetry/api';
import { ATTRIBUTES } from '@programrun/engine';
import type { QueryOptions, SqlDatabase, SqlExecutor } from './sql-database.js';

/**
 * Runs `work` in a transaction of `database`, counting its statements (BEGIN and COMMIT
 * included), and sets the count on `span` once the transaction commits as
 * `programrun.store.statements`.
 */
export async function countedTransaction<T>(
  database: SqlDatabase,
  span: Span,
  work: (sql: SqlExecutor) => Promise<T>,
): Promise<T> {
  let statements = 2;
  const result = await database.transaction((sql) =>
    work({
      query<Row>(text: string, params?: readonly unknown[], options?: QueryOptions) {
        statements += 1;
        return sql.query<Row>(text, params, options);
      },
      script(text: string) {
        statements += 1;
        return sql.script(text);
      },
    }),
  );
  span.setAttribute(ATTRIBUTES.storeStatements, statements);
  return result;
}
