// A transition on a SQL store is one transaction of four round trips: BEGIN, one read (the
// run with its pending timers and test clock), one write statement, COMMIT. Counted below
// the store on every statement an engine sends for a whole wallet delivery.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, partnerIdempotencyKey, type Scope } from '@programrun/engine';
import type { SqlExecutor } from '../src/index.js';
import { usePGliteSchemas } from './support/pglite-schemas.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const INPUTS = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

/** The statements of each transaction, as their first words. */
const transactions: string[][] = [];
const counting = (sql: SqlExecutor): Promise<SqlExecutor> => {
  const statements: string[] = [];
  transactions.push(statements);
  return Promise.resolve({
    query(text, params, options) {
      statements.push(text.trim().split(/\s+/).slice(0, 2).join(' '));
      return sql.query(text, params, options);
    },
    script: (text) => sql.script(text),
  });
};
const freshStore = usePGliteSchemas('round_trips', counting);

/** The statements of the transactions `work` ran. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[][]> {
  transactions.length = 0;
  await work();
  return transactions.map((statements) => [...statements]);
}

describe('a transition on a SQL store', () => {
  it.each(['live', 'test'] as const)(
    'is BEGIN, one read, one write and COMMIT for every signal of a %s run',
    async (environment) => {
      const store = await freshStore();
      try {
        const engine = createEngine({ store, scenarios });
        const scope: Scope = { account: 'acct_round_trips', environment };
        const { run } = await engine.createRun(scope, {
          scenario_id: 'wallet-delivery@v1',
          inputs: INPUTS,
        });
        const answer = (step: string) => ({
          kind: 'handoff' as const,
          step,
          outcome: 'confirmed' as const,
          reference: `ref_${step}`,
          data: step === 'screen_destination' ? { risk: 'low' } : {},
          idempotency_key: partnerIdempotencyKey(run.id, step, 1),
        });
        const signals = [
          answer('screen_destination'),
          {
            kind: 'approval' as const,
            step: 'release_approval',
            decision: 'approve' as const,
            approver: 'ops:alice',
          },
          answer('transfer_to_wallet'),
        ];
        for (const signal of signals) {
          const seen = await statementsOf(() => engine.signal(scope, run.id, signal));
          expect(seen, `${signal.step} in ${environment}`).toEqual([['SELECT id,', 'WITH run']]);
        }
        expect((await engine.getRun(scope, run.id)).status).toBe('completed');
      } finally {
        await store.close();
      }
    },
  );

  it('creates a run with one write (and, in test, one read of the account clock)', async () => {
    const store = await freshStore();
    try {
      const engine = createEngine({ store, scenarios });
      for (const environment of ['live', 'test'] as const) {
        const seen = await statementsOf(() =>
          engine.createRun(
            { account: 'acct_round_trips', environment },
            { scenario_id: 'wallet-delivery@v1', inputs: INPUTS },
          ),
        );
        expect(seen).toEqual([
          environment === 'live' ? ['WITH run'] : ['SELECT account,', 'WITH run'],
        ]);
      }
    } finally {
      await store.close();
    }
  });
});
