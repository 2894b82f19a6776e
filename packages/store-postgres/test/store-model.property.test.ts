// Model-based property: random sequences of store operations give the same answers (values
// or error codes) on PGlite as on the memory store, the reference implementation of
// Store spec v1. Covers the SQL paths the contract suite checks only by example: keyset
// cursors under filters, compare-and-swap, unique keys, timer leases.
import fc from 'fast-check';
import { type RunRecord, type StoredRun, type StoreTransactionV1 } from '@programrun/engine';
import { compareWithMemoryStore } from './support/model-comparison.js';

const at = (minute: number): string => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

const ids = fc.constantFrom('prun_a', 'prun_b', 'prun_c', 'prun_d', 'prun_e');
const scopes = fc.constantFrom(
  { account: 'acct_1', environment: 'test' as const },
  { account: 'acct_1', environment: 'live' as const },
  { account: 'acct_2', environment: 'test' as const },
);
const statuses = fc.constantFrom('waiting', 'completed', 'failed');

const command = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    id: ids,
    scope: scopes,
    minute: fc.integer({ min: 0, max: 3 }),
    key: fc.option(fc.constantFrom('k1', 'k2'), { nil: null }),
    status: statuses,
  }),
  fc.record({
    op: fc.constant('update' as const),
    id: ids,
    scope: scopes,
    expected: fc.integer({ min: 1, max: 3 }),
    status: statuses,
  }),
  fc.record({
    op: fc.constant('list' as const),
    scope: scopes,
    status: fc.option(statuses, { nil: undefined }),
    after: fc.option(ids, { nil: undefined }),
    gte: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    limit: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    op: fc.constant('byKey' as const),
    scope: scopes,
    key: fc.constantFrom('k1', 'k2'),
  }),
  fc.record({
    op: fc.constant('schedule' as const),
    id: fc.constantFrom('tmr_1', 'tmr_2', 'tmr_3', 'tmr_4'),
    runId: ids,
    scope: scopes,
    due: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({
    op: fc.constant('claim' as const),
    scope: scopes,
    perAccount: fc.boolean(),
    due: fc.integer({ min: 0, max: 5 }),
    // Lease boundaries collide often: a lease ending exactly at a claim's now is free.
    leaseNow: fc.constantFrom(0, 5, 10),
    limit: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    op: fc.constant('settle' as const),
    ids: fc.subarray(['tmr_1', 'tmr_2', 'tmr_3', 'tmr_4']),
  }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

function run(command: Extract<Command, { op: 'insert' | 'update' }>, version: number): StoredRun {
  const created = at(command.op === 'insert' ? command.minute : 0);
  return {
    id: command.id,
    ...command.scope,
    version,
    scenario_id: 'wallet-delivery@v1',
    status: command.status as StoredRun['status'],
    created_at: created,
    idempotency_key: command.op === 'insert' ? command.key : null,
    snapshot: null,
    last_sequence: 0,
    record: { id: command.id, status: command.status, version } as unknown as RunRecord,
  };
}

/** Applies one command; the answer is what a caller can observe. */
async function apply(tx: StoreTransactionV1, command: Command): Promise<unknown> {
  switch (command.op) {
    case 'insert':
      return tx.insertRun(run(command, 1));
    case 'update': {
      // Only the version moves; the row's creation fields stay those of the stored run.
      const current = await tx.getRun(command.scope, command.id);
      if (!current) return 'absent';
      return tx.updateRun(
        { ...current, version: current.version + 1, status: command.status as StoredRun['status'] },
        command.expected,
      );
    }
    case 'list':
      return (
        await tx.listRuns(command.scope, {
          limit: command.limit,
          ...(command.status ? { status: command.status as StoredRun['status'] } : {}),
          ...(command.after ? { starting_after: command.after } : {}),
          ...(command.gte !== undefined ? { created_gte: at(command.gte) } : {}),
        })
      ).data.map((row) => `${row.id}@${row.version}`);
    case 'byKey':
      return (await tx.findRunByIdempotencyKey(command.scope, command.key))?.id ?? null;
    case 'schedule':
      return tx.scheduleTimers([
        {
          id: command.id,
          run_id: command.runId,
          ...command.scope,
          kind: 'wait',
          step: 'hold',
          attempt: 1,
          due_at: at(command.due),
          payload: {},
          status: 'pending',
        },
      ]);
    case 'claim':
      return (
        await tx.claimTimers({
          environment: command.scope.environment,
          ...(command.perAccount ? { account: command.scope.account } : {}),
          due_at: at(command.due),
          lease_now: at(command.leaseNow),
          lease_until: at(command.leaseNow + 5),
          limit: command.limit,
        })
      ).map((timer) => timer.id);
    case 'settle':
      return tx.settleTimers(command.ids, 'fired');
  }
}

compareWithMemoryStore({
  describe: 'PGlite answers like the memory store (model-based)',
  it: 'gives the same answer to every operation of random sequences',
  schemaPrefix: 'model',
  sequences: fc.array(command, { minLength: 1, maxLength: 30 }),
  apply,
  numRuns: 80,
});
