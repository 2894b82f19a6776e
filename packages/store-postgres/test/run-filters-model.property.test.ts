// Model-based property for the run list filters that read a run's record (`stage`,
// `awaiting`, `q`): random inserts, updates that move runs between stages and waits, and
// lists with any mix of filters, cursor and limit give the same pages on PGlite as on the
// memory store, so the filter columns the store writes and their indexes follow every write.
import fc from 'fast-check';
import type { RunQuery, RunRecord, StoredRun, StoreTransactionV1 } from '@programrun/engine';
import { compareWithMemoryStore } from './support/model-comparison.js';

const at = (minute: number): string => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

const ids = fc.constantFrom('prun_a', 'prun_b', 'prun_c', 'prun_d', 'prun_e', 'prun_f');
const scopes = fc.oneof(
  { arbitrary: fc.constant({ account: 'acct_1', environment: 'test' as const }), weight: 3 },
  { arbitrary: fc.constant({ account: 'acct_2', environment: 'test' as const }), weight: 1 },
);
const texts = fc.constantFrom('sess_1', '/shop', 'prun_b', 'ü/ß 路径');
const where = fc.record({
  stage: fc.option(fc.constantFrom('intake', 'release', 'delivery'), { nil: null }),
  awaiting: fc.option(fc.constantFrom('approval', 'handoff', 'timer'), { nil: null }),
  session: fc.option(texts, { nil: null }),
  source: fc.option(texts, { nil: null }),
});
type Where = typeof where extends fc.Arbitrary<infer T> ? T : never;

/** A filter present in one list of four, so that pages are seldom empty. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });

const insert = fc.record({
  op: fc.constant('insert' as const),
  id: ids,
  scope: scopes,
  minute: fc.integer({ min: 0, max: 3 }),
  key: fc.option(texts, { nil: null }),
  where,
});

const command = fc.oneof(
  insert,
  fc.record({ op: fc.constant('move' as const), id: ids, scope: scopes, where }),
  fc.record({
    op: fc.constant('list' as const),
    scope: scopes,
    stage: sometimes(fc.constantFrom('intake', 'release', 'delivery')),
    awaiting: sometimes(fc.constantFrom('approval', 'handoff', 'timer')),
    q: sometimes(texts),
    status: sometimes(fc.constantFrom('waiting', 'running')),
    gte: sometimes(fc.integer({ min: 0, max: 3 })),
    after: sometimes(ids),
    limit: fc.integer({ min: 1, max: 4 }),
  }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

/** The record fields the filters read, and the status that goes with them. */
function withWhere(run: StoredRun, fields: Where, version: number): StoredRun {
  const status = fields.awaiting === null ? 'running' : 'waiting';
  return {
    ...run,
    version,
    status,
    record: {
      id: run.id,
      status,
      stage: fields.stage,
      awaiting: fields.awaiting && { kind: fields.awaiting, step: 'step' },
      session_id: fields.session,
      source_path: fields.source,
    } as unknown as RunRecord,
  };
}

/** Applies one command; the answer is what a caller can observe. */
async function apply(tx: StoreTransactionV1, command: Command): Promise<unknown> {
  switch (command.op) {
    case 'insert': {
      const run: StoredRun = {
        id: command.id,
        ...command.scope,
        version: 1,
        scenario_id: 'wallet-delivery@v1',
        status: 'running',
        created_at: at(command.minute),
        idempotency_key: command.key,
        snapshot: null,
        last_sequence: 0,
        record: {} as RunRecord,
      };
      return tx.insertRun(withWhere(run, command.where, 1));
    }
    case 'move': {
      const current = await tx.getRun(command.scope, command.id);
      if (!current) return 'absent';
      return tx.updateRun(withWhere(current, command.where, current.version + 1), current.version);
    }
    case 'list': {
      const query: RunQuery = {
        limit: command.limit,
        ...(command.stage === undefined ? {} : { stage: command.stage }),
        ...(command.awaiting === undefined ? {} : { awaiting: command.awaiting }),
        ...(command.q === undefined ? {} : { q: command.q }),
        ...(command.status === undefined ? {} : { status: command.status }),
        ...(command.gte === undefined ? {} : { created_gte: at(command.gte) }),
        ...(command.after === undefined ? {} : { starting_after: command.after }),
      };
      const page = await tx.listRuns(command.scope, query);
      return { ids: page.data.map((row) => `${row.id}@${row.version}`), more: page.has_more };
    }
  }
}

compareWithMemoryStore({
  describe: 'PGlite filters run lists like the memory store (model-based)',
  it: 'gives the same page for every mix of stage, awaiting, q and the other filters',
  schemaPrefix: 'filters',
  // Runs first, so that most lists have some to filter.
  sequences: fc
    .tuple(
      fc.array(insert, { minLength: 3, maxLength: 8 }),
      fc.array(command, { minLength: 1, maxLength: 25 }),
    )
    .map(([runs, commands]) => [...runs, ...commands]),
  apply,
  numRuns: 100,
});
