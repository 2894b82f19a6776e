import { describe, expect, it } from 'vitest';
import type { LifecycleRecord } from './lifecycle/lifecycle-record.js';
import type { RunRecord } from './runs/run-record.js';
import { isStoreError } from './store/store-error.js';
import { defineWebhookStoreContract } from './store-contract-webhooks.js';
import type {
  ApiKeyRow,
  IdempotencyRecord,
  IssuerActivationRow,
  Scope,
  StoredRun,
  StoreV1,
  TimerRow,
} from './store/store-v1.js';

/** How the contract suite gets a fresh, empty store for each test. */
export type StoreFactory = () => Promise<StoreV1> | StoreV1;

const scope: Scope = { account: 'acct_a', environment: 'test' };
const otherAccount: Scope = { account: 'acct_b', environment: 'test' };
const otherEnvironment: Scope = { account: 'acct_a', environment: 'live' };

/** A stored run fixture; only the fields stores look at matter. */
function storedRun(id: string, overrides: Partial<StoredRun> & { at?: string } = {}): StoredRun {
  const at = overrides.at ?? '2026-01-01T00:00:00.000Z';
  const record = {
    object: 'program_run',
    id,
    status: 'waiting',
    created_at: at,
    inputs: { amount: '1.00' },
  } as unknown as RunRecord;
  return {
    id,
    account: scope.account,
    environment: scope.environment,
    version: 1,
    scenario_id: 'wallet-delivery@v1',
    status: 'waiting',
    created_at: at,
    idempotency_key: null,
    snapshot: {
      value: { intake: { screen: 'active' } },
      context: { inputs: { amount: '1.00' } } as never,
    },
    last_sequence: 0,
    record,
    ...overrides,
  };
}

function record(runId: string, sequence: number): LifecycleRecord {
  return {
    id: `evt_${runId}_${sequence}`,
    run_id: runId,
    sequence,
    type: 'program_run.stage.started',
    stage: 'intake',
    step: null,
    created: '2026-01-01T00:00:00.000Z',
    data: { n: sequence, nested: { ok: true, none: null } },
    prev: sequence === 1 ? null : `sha256:${String(sequence - 1).padStart(64, '0')}`,
    hash: `sha256:${String(sequence).padStart(64, '0')}`,
  };
}

function timer(id: string, dueAt: string, overrides: Partial<TimerRow> = {}): TimerRow {
  return {
    id,
    run_id: 'prun_1',
    account: scope.account,
    environment: scope.environment,
    kind: 'timeout',
    step: 'screen',
    attempt: 1,
    due_at: dueAt,
    payload: { outcome: 'confirmed' },
    status: 'pending',
    ...overrides,
  };
}

const idempotency = (
  key: string,
  overrides: Partial<IdempotencyRecord> = {},
): IdempotencyRecord => ({
  account: scope.account,
  environment: scope.environment,
  key,
  fingerprint: 'sha256:abc',
  state: 'completed',
  response: {
    status: 201,
    body: '{"id":"prun_1"}',
    content_type: 'application/json',
    request_id: 'req_1',
  },
  locked_until: '2026-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-02T00:00:00.000Z',
  ...overrides,
});

async function expectStoreError(
  promise: Promise<unknown>,
  code: 'duplicate_key' | 'version_conflict',
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isStoreError(error, code), `expected a ${code} StoreError, got ${String(error)}`).toBe(
    true,
  );
}

/**
 * The Store spec v1 contract: every store (memory, PGlite, PostgreSQL) must pass it.
 * Call it from a vitest file with a factory that returns a fresh, empty store.
 *
 * @example
 * ```ts
 * import { defineStoreContract } from '@programrun/engine/store-contract';
 * defineStoreContract('memory', () => createMemoryStore());
 * ```
 */
export function defineStoreContract(name: string, createStore: StoreFactory): void {
  describe(`Store spec v1 contract: ${name}`, () => {
    const withStore = async (test: (store: StoreV1) => Promise<void>): Promise<void> => {
      const store = await createStore();
      try {
        await test(store);
      } finally {
        await store.close();
      }
    };

    it('declares spec v1', () =>
      withStore((store) => {
        expect(store.specificationVersion).toBe('v1');
        return Promise.resolve();
      }));

    it('stores runs exactly and scopes them to account and environment', () =>
      withStore(async (store) => {
        const run = storedRun('prun_1', { idempotency_key: 'key-1' });
        await store.transaction((tx) => tx.insertRun(run));
        await store.transaction(async (tx) => {
          expect(await tx.getRun(scope, 'prun_1')).toEqual(run);
          expect(await tx.getRun(otherAccount, 'prun_1')).toBeUndefined();
          expect(await tx.getRun(otherEnvironment, 'prun_1')).toBeUndefined();
          expect(await tx.findRunByIdempotencyKey(scope, 'key-1')).toEqual(run);
          expect(await tx.findRunByIdempotencyKey(otherAccount, 'key-1')).toBeUndefined();
        });
      }));

    it('refuses a second run with the same id or the same idempotency key in a scope', () =>
      withStore(async (store) => {
        await store.transaction((tx) =>
          tx.insertRun(storedRun('prun_1', { idempotency_key: 'key-1' })),
        );
        await expectStoreError(
          store.transaction((tx) => tx.insertRun(storedRun('prun_1'))),
          'duplicate_key',
        );
        await expectStoreError(
          store.transaction((tx) =>
            tx.insertRun(storedRun('prun_2', { idempotency_key: 'key-1' })),
          ),
          'duplicate_key',
        );
        await store.transaction((tx) =>
          tx.insertRun(
            storedRun('prun_3', { idempotency_key: 'key-1', account: otherAccount.account }),
          ),
        );
      }));

    it('updates a run only from the expected version (compare-and-swap)', () =>
      withStore(async (store) => {
        await store.transaction((tx) => tx.insertRun(storedRun('prun_1')));
        await store.transaction((tx) =>
          tx.updateRun(storedRun('prun_1', { version: 2, status: 'completed' }), 1),
        );
        await expectStoreError(
          store.transaction((tx) => tx.updateRun(storedRun('prun_1', { version: 3 }), 1)),
          'version_conflict',
        );
        await expectStoreError(
          store.transaction((tx) => tx.updateRun(storedRun('prun_missing', { version: 2 }), 1)),
          'version_conflict',
        );
        const stored = await store.transaction((tx) => tx.getRun(scope, 'prun_1'));
        expect(stored?.version).toBe(2);
        expect(stored?.status).toBe('completed');
      }));

    it('lets exactly one of two writers that read the same version win', () =>
      withStore(async (store) => {
        await store.transaction((tx) => tx.insertRun(storedRun('prun_1')));
        const read = await store.transaction((tx) => tx.getRun(scope, 'prun_1'));
        const attempts = await Promise.allSettled(
          (['completed', 'cancelled'] as const).map((status) =>
            store.transaction((tx) =>
              tx.updateRun(storedRun('prun_1', { version: 2, status }), read!.version),
            ),
          ),
        );
        expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
        const rejected = attempts.find((attempt) => attempt.status === 'rejected');
        expect(isStoreError(rejected?.reason, 'version_conflict')).toBe(true);
      }));

    it('rolls back every write of a transaction that throws', () =>
      withStore(async (store) => {
        await store.transaction((tx) => tx.insertRun(storedRun('prun_keep')));
        await expect(
          store.transaction(async (tx) => {
            await tx.insertRun(storedRun('prun_1', { idempotency_key: 'key-1' }));
            await tx.updateRun(storedRun('prun_keep', { version: 2, status: 'faulted' }), 1);
            await tx.appendRecords(scope, [record('prun_1', 1)]);
            await tx.scheduleTimers([timer('tmr_1', '2026-01-01T00:00:00.000Z')]);
            await tx.putIdempotencyRecord(idempotency('key-1'));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        await store.transaction(async (tx) => {
          expect(await tx.getRun(scope, 'prun_1')).toBeUndefined();
          expect(await tx.findRunByIdempotencyKey(scope, 'key-1')).toBeUndefined();
          expect((await tx.getRun(scope, 'prun_keep'))?.version).toBe(1);
          expect(await tx.listRecords(scope, 'prun_1')).toEqual([]);
          expect(
            await tx.dueTimers({ environment: 'test' }, '2030-01-01T00:00:00.000Z', 10),
          ).toEqual([]);
          expect(await tx.lockIdempotencyRecord(scope, 'key-1')).toBeUndefined();
        });
        // The store stays usable after a rollback.
        await store.transaction((tx) => tx.insertRun(storedRun('prun_1')));
      }));

    it('lists runs newest first with filters and cursor pagination', () =>
      withStore(async (store) => {
        await store.transaction(async (tx) => {
          for (let index = 1; index <= 5; index += 1) {
            await tx.insertRun(
              storedRun(`prun_${index}`, {
                at: `2026-01-0${index}T00:00:00.000Z`,
                status: index % 2 === 0 ? 'completed' : 'waiting',
                scenario_id: index === 5 ? 'bank-payout@v1' : 'wallet-delivery@v1',
              }),
            );
          }
          await tx.insertRun(storedRun('prun_other', { account: otherAccount.account }));
        });
        await store.transaction(async (tx) => {
          const ids = async (query: Parameters<typeof tx.listRuns>[1]) => {
            const page = await tx.listRuns(scope, query);
            return { ids: page.data.map((run) => run.id), has_more: page.has_more };
          };
          expect(await ids({ limit: 2 })).toEqual({ ids: ['prun_5', 'prun_4'], has_more: true });
          expect(await ids({ limit: 2, starting_after: 'prun_4' })).toEqual({
            ids: ['prun_3', 'prun_2'],
            has_more: true,
          });
          expect(await ids({ limit: 2, starting_after: 'prun_2' })).toEqual({
            ids: ['prun_1'],
            has_more: false,
          });
          expect(await ids({ limit: 2, starting_after: 'prun_unknown' })).toEqual({
            ids: [],
            has_more: false,
          });
          expect(await ids({ limit: 2, starting_after: 'prun_other' })).toEqual({
            ids: [],
            has_more: false,
          });
          expect(await ids({ limit: 10, status: 'completed' })).toEqual({
            ids: ['prun_4', 'prun_2'],
            has_more: false,
          });
          expect(await ids({ limit: 10, scenario_id: 'bank-payout@v1' })).toEqual({
            ids: ['prun_5'],
            has_more: false,
          });
          expect(
            await ids({
              limit: 10,
              created_gte: '2026-01-02T00:00:00.000Z',
              created_lt: '2026-01-04T00:00:00.000Z',
            }),
          ).toEqual({ ids: ['prun_3', 'prun_2'], has_more: false });
        });
      }));

    it('appends lifecycle records in sequence and refuses a sequence twice', () =>
      withStore(async (store) => {
        await store.transaction(async (tx) => {
          await tx.insertRun(storedRun('prun_1'));
          await tx.appendRecords(scope, [record('prun_1', 1), record('prun_1', 2)]);
        });
        await store.transaction((tx) => tx.appendRecords(scope, [record('prun_1', 3)]));
        await expectStoreError(
          store.transaction((tx) => tx.appendRecords(scope, [record('prun_1', 3)])),
          'duplicate_key',
        );
        await store.transaction(async (tx) => {
          expect(await tx.listRecords(scope, 'prun_1')).toEqual(
            [1, 2, 3].map((n) => record('prun_1', n)),
          );
          expect(
            (await tx.listRecords(scope, 'prun_1', { afterSequence: 1, limit: 1 })).map(
              (r) => r.sequence,
            ),
          ).toEqual([2]);
          expect(await tx.listRecords(otherAccount, 'prun_1')).toEqual([]);
        });
      }));

    it('keeps timers: pending per run, due ones earliest first per environment, settled ones gone', () =>
      withStore(async (store) => {
        await store.transaction((tx) =>
          tx.scheduleTimers([
            timer('tmr_late', '2026-01-01T00:10:00.000Z'),
            timer('tmr_early', '2026-01-01T00:01:00.000Z', { kind: 'partner_response' }),
            timer('tmr_live', '2026-01-01T00:00:30.000Z', { environment: 'live' }),
            timer('tmr_other_run', '2026-01-01T00:05:00.000Z', { run_id: 'prun_2' }),
            timer('tmr_other_account', '2026-01-01T00:04:00.000Z', {
              run_id: 'prun_3',
              account: 'acct_b',
            }),
          ]),
        );
        await store.transaction(async (tx) => {
          expect((await tx.pendingTimers('prun_1')).map((t) => t.id).sort()).toEqual([
            'tmr_early',
            'tmr_late',
            'tmr_live',
          ]);
          expect(
            (await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:05:00.000Z', 10)).map(
              (t) => t.id,
            ),
          ).toEqual(['tmr_early', 'tmr_other_account', 'tmr_other_run']);
          expect(
            (await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:05:00.000Z', 1)).map(
              (t) => t.id,
            ),
          ).toEqual(['tmr_early']);
          expect((await tx.nextTimer({ environment: 'live' }))?.id).toBe('tmr_live');
          // Per account: test clocks are per account, so are their timer queries.
          expect(
            (
              await tx.dueTimers(
                { environment: 'test', account: 'acct_b' },
                '2026-01-01T00:05:00.000Z',
                10,
              )
            ).map((t) => t.id),
          ).toEqual(['tmr_other_account']);
          expect((await tx.nextTimer({ environment: 'test', account: scope.account }))?.id).toBe(
            'tmr_early',
          );
          expect(
            await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:00:59.000Z', 10),
          ).toEqual([]);
          await tx.settleTimers(['tmr_early', 'tmr_live'], 'fired');
        });
        await store.transaction(async (tx) => {
          expect((await tx.pendingTimers('prun_1')).map((t) => t.id)).toEqual(['tmr_late']);
          expect((await tx.nextTimer({ environment: 'test' }))?.id).toBe('tmr_other_account');
          expect((await tx.nextTimer({ environment: 'test', account: scope.account }))?.id).toBe(
            'tmr_other_run',
          );
          expect(await tx.nextTimer({ environment: 'live' })).toBeUndefined();
        });
        await expectStoreError(
          store.transaction((tx) =>
            tx.scheduleTimers([timer('tmr_late', '2026-01-01T00:00:00.000Z')]),
          ),
          'duplicate_key',
        );
      }));

    it('leases due timers to one claimer at a time and frees them when the lease ends', () =>
      withStore(async (store) => {
        const due = Array.from({ length: 12 }, (_, index) =>
          timer(`tmr_${String(index).padStart(2, '0')}`, '2026-01-01T00:01:00.000Z', {
            run_id: `prun_${index % 3}`,
          }),
        );
        await store.transaction((tx) =>
          tx.scheduleTimers([
            ...due,
            timer('tmr_future', '2026-01-01T01:00:00.000Z'),
            timer('tmr_live_due', '2026-01-01T00:00:00.000Z', { environment: 'live' }),
          ]),
        );
        const claim = (leaseNow: string, limit = 5) => ({
          environment: 'test' as const,
          due_at: '2026-01-01T00:30:00.000Z',
          lease_now: leaseNow,
          lease_until: '2026-01-01T00:10:00.000Z',
          limit,
        });
        // Four claimers at once (separate transactions): every due timer goes to exactly one.
        const batches = await Promise.all(
          [0, 1, 2, 3].map(() =>
            store.transaction((tx) => tx.claimTimers(claim('2026-01-01T00:00:00.000Z'))),
          ),
        );
        const claimed = batches.flat().map((t) => t.id);
        expect(new Set(claimed).size).toBe(claimed.length);
        expect([...claimed].sort()).toEqual(due.map((t) => t.id));
        for (const batch of batches) {
          expect(batch.map((t) => t.id)).toEqual([...batch.map((t) => t.id)].sort());
        }
        // Held while the lease lasts; free again once it ended (a crashed host's timers).
        expect(
          await store.transaction((tx) => tx.claimTimers(claim('2026-01-01T00:09:59.000Z'))),
        ).toEqual([]);
        await store.transaction((tx) => tx.settleTimers(['tmr_00', 'tmr_01'], 'fired'));
        const retaken = await store.transaction((tx) =>
          tx.claimTimers(claim('2026-01-01T00:10:01.000Z', 50)),
        );
        expect(retaken.map((t) => t.id)).toEqual(due.slice(2).map((t) => t.id));
        expect(retaken[0]).toEqual(due[2]);
        // Leased timers are still pending, listed and due (only claims skip them).
        await store.transaction(async (tx) => {
          expect((await tx.pendingTimers('prun_2')).map((t) => t.id)).toContain('tmr_02');
          expect(
            (await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:30:00.000Z', 1)).map(
              (t) => t.id,
            ),
          ).toEqual(['tmr_02']);
        });
        // A claim rolled back with its transaction leaves the timers free.
        await store
          .transaction(async (tx) => {
            await tx.claimTimers({ ...claim('2026-01-01T00:00:00.000Z'), environment: 'live' });
            throw new Error('crash after claiming');
          })
          .catch(() => undefined);
        expect(
          (
            await store.transaction((tx) =>
              tx.claimTimers({ ...claim('2026-01-01T00:00:00.000Z'), environment: 'live' }),
            )
          ).map((t) => t.id),
        ).toEqual(['tmr_live_due']);
      }));

    it('keeps one access request per session and scope', () =>
      withStore(async (store) => {
        const lead = {
          id: 'lead_1',
          account: scope.account,
          environment: scope.environment,
          session_id: 'sess_1',
          name: 'Ana Lima',
          email: 'ana@example.com',
          company: 'Example Pay',
          use_case: 'Cross-border payouts',
          created_at: '2026-01-01T00:00:00.000Z',
        };
        await store.transaction((tx) => tx.insertAccessRequest(lead));
        await expectStoreError(
          store.transaction((tx) => tx.insertAccessRequest({ ...lead, id: 'lead_2' })),
          'duplicate_key',
        );
        await store.transaction((tx) =>
          tx.insertAccessRequest({ ...lead, id: 'lead_3', account: otherAccount.account }),
        );
        await store.transaction(async (tx) => {
          expect(await tx.getAccessRequestBySession(scope, 'sess_1')).toEqual(lead);
          expect(await tx.getAccessRequestBySession(otherEnvironment, 'sess_1')).toBeUndefined();
          expect(await tx.getAccessRequestBySession(scope, 'sess_2')).toBeUndefined();
        });
      }));

    it('keeps idempotency records per scope and purges expired ones', () =>
      withStore(async (store) => {
        await store.transaction(async (tx) => {
          await tx.putIdempotencyRecord(
            idempotency('key-1', { state: 'in_flight', response: null }),
          );
          await tx.putIdempotencyRecord(idempotency('key-1'));
          await tx.putIdempotencyRecord(
            idempotency('key-2', { expires_at: '2026-01-03T00:00:00.000Z' }),
          );
          await tx.putIdempotencyRecord(
            idempotency('key-1', { account: otherAccount.account, fingerprint: 'sha256:other' }),
          );
        });
        await store.transaction(async (tx) => {
          expect(await tx.lockIdempotencyRecord(scope, 'key-1')).toEqual(idempotency('key-1'));
          expect((await tx.lockIdempotencyRecord(otherAccount, 'key-1'))?.fingerprint).toBe(
            'sha256:other',
          );
          expect(await tx.purgeIdempotencyRecords('2026-01-02T12:00:00.000Z')).toBe(2);
          expect(await tx.lockIdempotencyRecord(scope, 'key-1')).toBeUndefined();
          expect(await tx.lockIdempotencyRecord(scope, 'key-2')).toBeDefined();
          await tx.deleteIdempotencyRecord(scope, 'key-2');
          expect(await tx.lockIdempotencyRecord(scope, 'key-2')).toBeUndefined();
        });
      }));

    it('stores a run suspended before its machine started (null snapshot)', () =>
      withStore(async (store) => {
        const held = storedRun('prun_held', { status: 'suspended', snapshot: null });
        await store.transaction((tx) => tx.insertRun(held));
        await store.transaction(async (tx) => {
          expect(await tx.getRun(scope, 'prun_held')).toEqual(held);
          expect(
            (await tx.listRuns(scope, { status: 'suspended', limit: 10 })).data.map((r) => r.id),
          ).toEqual(['prun_held']);
        });
      }));

    it('keeps one test clock per account that only its owner moves', () =>
      withStore(async (store) => {
        await store.transaction(async (tx) => {
          expect(await tx.getTestClock('acct_a')).toBeUndefined();
          expect(await tx.listTestClocks()).toEqual([]);
          await tx.putTestClock({
            account: 'acct_b',
            offset_ms: 5_000,
            updated_at: '2026-01-01T00:00:00.000Z',
          });
          await tx.putTestClock({
            account: 'acct_a',
            offset_ms: 1_000,
            updated_at: '2026-01-01T00:00:00.000Z',
          });
          await tx.putTestClock({
            account: 'acct_a',
            offset_ms: 61_000,
            updated_at: '2026-01-01T00:01:00.000Z',
          });
        });
        await store.transaction(async (tx) => {
          expect(await tx.getTestClock('acct_a')).toEqual({
            account: 'acct_a',
            offset_ms: 61_000,
            updated_at: '2026-01-01T00:01:00.000Z',
          });
          expect(
            (await tx.listTestClocks()).map((clock) => [clock.account, clock.offset_ms]),
          ).toEqual([
            ['acct_a', 61_000],
            ['acct_b', 5_000],
          ]);
        });
      }));

    it('keeps API keys by secret hash, per account, and revokes them', () =>
      withStore(async (store) => {
        const key = (id: string, overrides: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
          id,
          account: 'acct_a',
          environment: 'test',
          secret_hash: `sha256:${id.padStart(64, '0')}`,
          last4: 'x7Qa',
          description: null,
          created_at: '2026-01-01T00:00:00.000Z',
          revoked_at: null,
          ...overrides,
        });
        await store.transaction(async (tx) => {
          await tx.insertApiKey(key('key_1'));
          await tx.insertApiKey(
            key('key_2', { environment: 'live', created_at: '2026-01-02T00:00:00.000Z' }),
          );
          await tx.insertApiKey(key('key_3', { account: 'acct_b' }));
        });
        await expectStoreError(
          store.transaction((tx) =>
            tx.insertApiKey(key('key_4', { secret_hash: key('key_1').secret_hash })),
          ),
          'duplicate_key',
        );
        await expectStoreError(
          store.transaction((tx) => tx.insertApiKey(key('key_1'))),
          'duplicate_key',
        );
        await store.transaction(async (tx) => {
          expect(await tx.findApiKeyByHash(key('key_3').secret_hash)).toEqual(
            key('key_3', { account: 'acct_b' }),
          );
          expect(await tx.findApiKeyByHash('sha256:unknown')).toBeUndefined();
          expect(await tx.getApiKey('acct_b', 'key_1')).toBeUndefined();
          expect((await tx.listApiKeys('acct_a')).map((row) => row.id)).toEqual(['key_1', 'key_2']);
          await tx.updateApiKey({ ...key('key_1'), revoked_at: '2026-01-03T00:00:00.000Z' });
        });
        await store.transaction(async (tx) => {
          expect((await tx.getApiKey('acct_a', 'key_1'))?.revoked_at).toBe(
            '2026-01-03T00:00:00.000Z',
          );
          expect((await tx.findApiKeyByHash(key('key_1').secret_hash))?.revoked_at).toBe(
            '2026-01-03T00:00:00.000Z',
          );
        });
      }));

    it('keeps one issuer activation per account and scenario', () =>
      withStore(async (store) => {
        const activation = (overrides: Partial<IssuerActivationRow> = {}): IssuerActivationRow => ({
          account: 'acct_a',
          scenario: 'reserve-usd-cycle',
          status: 'active',
          reference: 'ISS-1',
          activated_at: '2026-01-01T00:00:00.000Z',
          revoked_at: null,
          ...overrides,
        });
        await store.transaction(async (tx) => {
          await tx.putIssuerActivation(activation());
          await tx.putIssuerActivation(activation({ scenario: 'bridge-routing' }));
          await tx.putIssuerActivation(activation({ account: 'acct_b' }));
          await tx.putIssuerActivation(
            activation({ status: 'revoked', revoked_at: '2026-01-02T00:00:00.000Z' }),
          );
        });
        await store.transaction(async (tx) => {
          expect((await tx.lockIssuerActivation('acct_a', 'reserve-usd-cycle'))?.status).toBe(
            'revoked',
          );
          expect(await tx.lockIssuerActivation('acct_c', 'reserve-usd-cycle')).toBeUndefined();
          expect((await tx.listIssuerActivations('acct_a')).map((row) => row.scenario)).toEqual([
            'bridge-routing',
            'reserve-usd-cycle',
          ]);
        });
      }));

    defineWebhookStoreContract(withStore);
  });
}
