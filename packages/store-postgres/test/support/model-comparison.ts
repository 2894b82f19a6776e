// Model-based comparison of a SQL store against the memory store (the reference
// implementation of Store spec v1): each random sequence of commands runs on a fresh
// PGlite schema and a fresh memory store, and every command must give the same answer
// (its value, or the StoreError code it failed with).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  isStoreError,
  type StoreTransactionV1,
  type StoreV1,
} from '@programrun/engine';
import {
  createPGliteDatabase,
  createSqlStore,
  migrate,
  type SqlDatabase,
} from '../../src/index.js';

/** What a comparison runs: the commands, how each is applied in a transaction, and how many sequences. */
export interface ModelComparison<Command> {
  readonly describe: string;
  readonly it: string;
  /** Prefix of the fresh schema each sequence gets. */
  readonly schemaPrefix: string;
  readonly sequences: fc.Arbitrary<Command[]>;
  readonly apply: (tx: StoreTransactionV1, command: Command) => Promise<unknown>;
  readonly numRuns: number;
}

/** One command's answer: its value (null for none), or the StoreError code it failed with. */
async function outcome<Command>(
  store: StoreV1,
  apply: ModelComparison<Command>['apply'],
  command: Command,
): Promise<unknown> {
  try {
    return { ok: (await store.transaction((tx) => apply(tx, command))) ?? null };
  } catch (error) {
    for (const code of ['duplicate_key', 'version_conflict', 'not_found'] as const) {
      if (isStoreError(error, code)) return { error: code };
    }
    throw error;
  }
}

/** Defines the vitest suite comparing PGlite with the memory store over random sequences. */
export function compareWithMemoryStore<Command>(comparison: ModelComparison<Command>): void {
  describe(comparison.describe, () => {
    let database: SqlDatabase;
    let schemas = 0;
    beforeAll(async () => {
      database = await createPGliteDatabase();
    });
    afterAll(() => database.close());

    it(comparison.it, async () => {
      await fc.assert(
        fc.asyncProperty(comparison.sequences, async (commands) => {
          const schema = `${comparison.schemaPrefix}_${(schemas += 1)}`;
          await migrate(database, { schema });
          const sql = createSqlStore(database, `"${schema}"`);
          const memory = createMemoryStore();
          for (const [index, step] of commands.entries()) {
            expect(
              await outcome(sql, comparison.apply, step),
              `step ${index}: ${JSON.stringify(step)}`,
            ).toEqual(await outcome(memory, comparison.apply, step));
          }
          await database.session((session) => session.query(`DROP SCHEMA "${schema}" CASCADE`));
        }),
        { numRuns: comparison.numRuns },
      );
    });
  });
}
