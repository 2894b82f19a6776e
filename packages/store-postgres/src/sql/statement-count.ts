import type { Span } from '@opentelemetry/api';
import { ATTRIBUTES } from '@programrun/engine';
import type {
  QueryOptions,
  SqlDatabase,
  SqlExecutor,
  SqlTransactionOptions,
} from './sql-database.js';

/**
 * Runs `work` in a transaction of `database`, counting its statements (BEGIN and COMMIT
 * included, when it sent them), and sets the count on `span` once the transaction commits
 * as `programrun.store.statements`.
 */
export async function countedTransaction<T>(
  database: SqlDatabase,
  span: Span,
  work: (sql: SqlExecutor) => Promise<T>,
  options?: SqlTransactionOptions,
): Promise<T> {
  let statements = 0;
  let begun = false;
  const result = await database.transaction(async (sql) => {
    const value = await work({
      query<Row>(text: string, params?: readonly unknown[], queryOptions?: QueryOptions) {
        statements += 1;
        return sql.query<Row>(text, params, queryOptions);
      },
      script(text: string) {
        statements += 1;
        return sql.script(text);
      },
      begun: () => sql.begun(),
    });
    begun = sql.begun();
    return value;
  }, options);
  span.setAttribute(ATTRIBUTES.storeStatements, statements + (begun ? 2 : 0));
  return result;
}
