// The run list filters against a model: random runs and random queries (every filter,
// cursor and limit) give the page a plain filter-sort-slice of the runs gives, from the
// memory store itself and through the engine's re-check from stores that ignore the filters
// they may ignore (`stage`, `awaiting`, `q`), also when such a store reads one run at a time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  type RunQuery,
  type RunRecord,
  type StoredRun,
  type StoreTransactionV1,
  type StoreV1,
} from '../src/index.js';
import { listMatchingRuns } from '../src/runs/list-matching-runs.js';

const scope = { account: 'acct_a', environment: 'test' } as const;
const at = (minute: number): string => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

const ids = ['prun_1', 'prun_2', 'prun_3', 'prun_4', 'prun_5', 'prun_6', 'prun_7', 'prun_8'];
const texts = ['a', 'b', 'prun_2', 'prun_5'];
const stages = ['intake', 'release', 'delivery'];
const kinds = ['approval', 'handoff', 'timer'] as const;
const statuses = ['running', 'waiting', 'completed'] as const;

const runSpec = fc.record({
  minute: fc.integer({ min: 0, max: 4 }),
  other: fc.boolean(),
  scenario: fc.constantFrom('s1@v1', 's2@v1'),
  status: fc.constantFrom(...statuses),
  stage: fc.option(fc.constantFrom(...stages), { nil: null }),
  awaiting: fc.option(fc.constantFrom(...kinds), { nil: null }),
  session: fc.option(fc.constantFrom(...texts), { nil: null }),
  source: fc.option(fc.constantFrom(...texts), { nil: null }),
  key: fc.option(fc.constantFrom(...texts), { nil: null }),
});
type RunSpec = typeof runSpec extends fc.Arbitrary<infer T> ? T : never;

const FILTERS = [
  'scenario_id',
  'status',
  'created_gte',
  'created_lt',
  'stage',
  'awaiting',
  'q',
  'starting_after',
] as const;

/** A query with up to four of the filters (the cursor among them), so that pages have runs. */
const querySpec = fc
  .tuple(
    fc.record({
      scenario_id: fc.constantFrom('s1@v1', 's2@v1'),
      status: fc.constantFrom(...statuses),
      created_gte: fc.integer({ min: 0, max: 4 }).map(at),
      created_lt: fc.integer({ min: 1, max: 5 }).map(at),
      stage: fc.constantFrom(...stages),
      awaiting: fc.constantFrom(...kinds),
      q: fc.constantFrom(...texts, 'prun_1'),
      starting_after: fc.constantFrom(...ids, 'prun_unknown'),
    }),
    fc.subarray([...FILTERS], { maxLength: 4 }),
    fc.integer({ min: 1, max: 4 }),
  )
  .map(([values, chosen, limit]): RunQuery => ({
    ...Object.fromEntries(chosen.map((name) => [name, values[name]])),
    limit,
  }));

function storedRun(id: string, spec: RunSpec, keys: Set<string>): StoredRun {
  // Creation keys are unique per scope: a repeated one is left out.
  const key = spec.key !== null && !spec.other && !keys.has(spec.key) ? spec.key : null;
  if (key !== null) keys.add(key);
  return {
    id,
    account: spec.other ? 'acct_b' : scope.account,
    environment: scope.environment,
    version: 1,
    scenario_id: spec.scenario,
    status: spec.status,
    created_at: at(spec.minute),
    idempotency_key: key,
    snapshot: null,
    last_sequence: 0,
    record: {
      id,
      stage: spec.stage,
      awaiting: spec.awaiting && { kind: spec.awaiting, step: 'step' },
      session_id: spec.session,
      source_path: spec.source,
    } as unknown as RunRecord,
  };
}

/** The model: every filter written out, newest first, then the cursor and the limit. */
function modelPage(runs: readonly StoredRun[], query: RunQuery): { ids: string[]; more: boolean } {
  const matching = runs
    .filter(
      (run) =>
        run.account === scope.account &&
        (query.scenario_id === undefined || run.scenario_id === query.scenario_id) &&
        (query.status === undefined || run.status === query.status) &&
        (query.created_gte === undefined || run.created_at >= query.created_gte) &&
        (query.created_lt === undefined || run.created_at < query.created_lt) &&
        (query.stage === undefined || run.record.stage === query.stage) &&
        (query.awaiting === undefined || run.record.awaiting?.kind === query.awaiting) &&
        (query.q === undefined ||
          [run.id, run.idempotency_key, run.record.session_id, run.record.source_path].includes(
            query.q,
          )),
    )
    .sort((a, b) =>
      a.created_at === b.created_at
        ? b.id.localeCompare(a.id)
        : b.created_at.localeCompare(a.created_at),
    );
  let start = 0;
  if (query.starting_after !== undefined) {
    const index = matching.findIndex((run) => run.id === query.starting_after);
    start = index === -1 ? matching.length : index + 1;
  }
  return {
    ids: matching.slice(start, start + query.limit).map((run) => run.id),
    more: start + query.limit < matching.length,
  };
}

/** A store whose run lists drop the filters a store may ignore, optionally one run a read. */
function ignoringStore(inner: StoreV1, pageSize?: number): StoreV1 {
  const ignoring = (tx: StoreTransactionV1): StoreTransactionV1 => ({
    ...tx,
    listRuns: (where, { stage: _stage, awaiting: _awaiting, q: _q, ...rest }) =>
      tx.listRuns(where, { ...rest, limit: pageSize ?? rest.limit }),
  });
  return { ...inner, transaction: (work) => inner.transaction((tx) => work(ignoring(tx))) };
}

describe('run list filters', () => {
  it('give the model’s page from every store, applying or ignoring the record filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(runSpec, { maxLength: ids.length }),
        fc.array(querySpec, { minLength: 1, maxLength: 6 }),
        async (specs, queries) => {
          const keys = new Set<string>();
          const runs = specs.map((spec, index) => storedRun(ids[index]!, spec, keys));
          const memory = createMemoryStore();
          await memory.transaction(async (tx) => {
            for (const run of runs) await tx.insertRun(run);
          });
          const stores = {
            applying: memory,
            ignoring: ignoringStore(memory),
            'ignoring, one run a read': ignoringStore(memory, 1),
          };
          for (const query of queries) {
            const expected = modelPage(runs, query);
            const direct = await memory.transaction((tx) => tx.listRuns(scope, query));
            expect({ ids: direct.data.map((run) => run.id), more: direct.has_more }).toEqual(
              expected,
            );
            for (const [name, store] of Object.entries(stores)) {
              const page = await store.transaction((tx) => listMatchingRuns(tx, scope, query));
              expect(
                { ids: page.data.map((run) => run.id), more: page.has_more },
                `${name}: ${JSON.stringify(query)}`,
              ).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
