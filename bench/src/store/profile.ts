import type { CompiledScenario } from '@programrun/dsl';
import { createAccounts, createEngine } from '@programrun/engine';
import { createHandler } from '@programrun/http';
import { createSqlStore, migrate, quoteSchema, type SqlDatabase } from '@programrun/store-postgres';
import { BENCH_KEY, createRunHeaders } from '../servers/bench-key.js';
import { countingDatabase, type SqlCounts } from './counting-database.js';
import { createBody, type CapturedCreate } from './create-template.js';
import { freshCopies, replay } from './fresh-copies.js';
import { recordingStore } from './recording-store.js';

/** What one create costs on one path, averaged over sequential creates. */
export interface PathCost {
  readonly path: string;
  readonly transactions: number;
  /** Statements, not counting BEGIN and COMMIT. */
  readonly statements: number;
  /** Statements plus BEGIN and COMMIT: round trips to the database. */
  readonly roundTrips: number;
  readonly microseconds: number;
}

/** Where the time of one HTTP create goes, against raw transactions. */
export interface CreateProfile {
  /** HTTP create, its transactions replayed raw, the raw transaction. */
  readonly paths: readonly PathCost[];
  /** Mean time of each transaction of an HTTP create, named by its operations. */
  readonly transactions: readonly { readonly operations: string; readonly milliseconds: number }[];
}

/**
 * Creates runs one at a time in this process over a migrated `database` (no sockets),
 * rotating over three paths: `handler.handle` (on a warm host: the key check, the create
 * and the stored answer in one transaction); the same transactions replayed raw; and the
 * raw transaction of section 1. Counts statements per path and times each transaction of
 * the HTTP path.
 *
 * @example
 * ```ts
 * const profile = await profileCreates(createPgDatabase({ connectionString }), 'bench_p', compiled, captured, 200);
 * ```
 */
export async function profileCreates(
  database: SqlDatabase,
  schema: string,
  compiled: CompiledScenario,
  captured: CapturedCreate,
  count: number,
): Promise<CreateProfile> {
  const counts: SqlCounts = { transactions: 0, statements: 0 };
  const counting = countingDatabase(database, counts);
  await migrate(counting, { schema });
  const store = createSqlStore(counting, quoteSchema(schema));
  const recording = recordingStore(store);
  const engine = createEngine({ store: recording.store, scenarios: [compiled] });
  const accounts = createAccounts({ store: recording.store });
  await accounts.apiKeys.create({ account: 'acct_bench', environment: 'test', secret: BENCH_KEY });
  const handler = createHandler({ engine, accounts, rateLimit: false });
  const body = createBody(compiled);
  const nextSequence = freshCopies(captured, captured.sequence);
  const nextRaw = freshCopies(captured, captured.calls);
  const paths: [string, () => Promise<unknown>][] = [
    [
      'HTTP create (handler.handle)',
      async () => {
        const response = await handler.handle(
          new Request('http://localhost/v1/program-runs', {
            method: 'POST',
            headers: createRunHeaders(crypto.randomUUID()),
            body,
          }),
        );
        await response.arrayBuffer();
        if (response.status !== 201) throw new Error(`profile: create answered ${response.status}`);
      },
    ],
    [
      `its ${captured.sequence.length} transaction${captured.sequence.length === 1 ? '' : 's'} replayed raw`,
      async () => {
        for (const calls of nextSequence()) await store.transaction((tx) => replay(tx, calls));
      },
    ],
    ['raw transaction (section 1)', () => store.transaction((tx) => replay(tx, nextRaw()))],
  ];

  const totals = paths.map(() => ({ transactions: 0, statements: 0, milliseconds: 0 }));
  for (let index = -20; index < count; index += 1) {
    if (index === 0) recording.transactions.length = 0; // the first 20 were warm-up
    for (const [path, [, create]] of paths.entries()) {
      const before = { ...counts };
      const started = performance.now();
      await create();
      if (index < 0) continue;
      totals[path]!.milliseconds += performance.now() - started;
      totals[path]!.transactions += counts.transactions - before.transactions;
      totals[path]!.statements += counts.statements - before.statements;
    }
  }
  const byOperations = new Map<string, number>();
  for (const { calls, milliseconds } of recording.transactions) {
    const operations = calls.map((call) => call.method).join(' + ');
    byOperations.set(operations, (byOperations.get(operations) ?? 0) + milliseconds);
  }
  await store.close();
  return {
    paths: paths.map(([path], index) => {
      const total = totals[index]!;
      return {
        path,
        transactions: total.transactions / count,
        statements: total.statements / count,
        roundTrips: (total.statements + 2 * total.transactions) / count,
        microseconds: (total.milliseconds * 1000) / count,
      };
    }),
    transactions: [...byOperations].map(([operations, milliseconds]) => ({
      operations,
      milliseconds: milliseconds / count,
    })),
  };
}
