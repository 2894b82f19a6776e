// Counts statements in this process, for a server without pg_stat_statements: wraps
// `Client.prototype.query` of every copy of `pg` the sides load (this package's, the
// store's and DBOS's; one module when they resolve to the same file), so every pooled or
// dedicated client of any side is counted from its next query on.
import { createRequire } from 'node:module';

interface QueryablePrototype {
  query: (this: unknown, ...args: unknown[]) => unknown;
}

/** The statements counted so far, without BEGIN, COMMIT and ROLLBACK. */
export interface ClientStatements {
  count(): number;
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK)\b/i;

/**
 * Wraps `query` of the `pg` modules that `packages` (and this file) resolve to.
 *
 * @example
 * ```ts
 * const statements = countClientStatements(['@programrun/store-postgres', '@dbos-inc/dbos-sdk']);
 * ```
 */
export function countClientStatements(packages: readonly string[]): ClientStatements {
  const here = createRequire(import.meta.url);
  const files = new Set([here.resolve('pg')]);
  for (const name of packages) {
    files.add(createRequire(import.meta.resolve(name)).resolve('pg'));
  }
  let statements = 0;
  for (const file of files) {
    const prototype = (here(file) as { Client: { prototype: QueryablePrototype } }).Client
      .prototype;
    const original = prototype.query;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
      if (typeof text !== 'string' || !TRANSACTION_CONTROL.test(text)) statements += 1;
      return original.apply(this, args);
    };
  }
  return { count: () => statements };
}
