// Fixtures of the Store spec v1 contract: scopes, rows with only the fields stores look
// at, and the check that a write failed with a given StoreError.
import { expect } from 'vitest';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { RunRecord } from '../runs/run-record.js';
import { isStoreError, type StoreErrorCode } from '../store/store-error.js';
import type { IdempotencyRecord, Scope, StoredRun, StoreV1, TimerRow } from '../store/store-v1.js';
import type { WebhookEndpointRow } from '../store/webhook-spec.js';

export const scope: Scope = { account: 'acct_a', environment: 'test' };
export const otherAccount: Scope = { account: 'acct_b', environment: 'test' };
export const otherEnvironment: Scope = { account: 'acct_a', environment: 'live' };

/** A stored run fixture; only the fields stores look at matter. */
export function storedRun(
  id: string,
  overrides: Partial<StoredRun> & { at?: string } = {},
): StoredRun {
  const at = overrides.at ?? '2026-01-01T00:00:00.000Z';
  const record = {
    object: 'program_run',
    id,
    status: 'waiting',
    created_at: at,
    inputs: { amount: '1.00' },
    scenario_digest: `sha256:${'5'.repeat(64)}`,
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

export function record(runId: string, sequence: number): LifecycleRecord {
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

export function timer(id: string, dueAt: string, overrides: Partial<TimerRow> = {}): TimerRow {
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

/** A webhook endpoint row in `scope` (override the scope, secrets or any field). */
export function webhookEndpoint(
  id: string,
  overrides: Partial<WebhookEndpointRow> = {},
): WebhookEndpointRow {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id,
    ...scope,
    url: `https://hooks.example.com/${id}`,
    description: null,
    enabled_events: ['*'],
    status: 'enabled',
    disabled_reason: null,
    disabled_at: null,
    secrets: [
      { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', created_at: at, expires_at: null },
    ],
    failing_since: null,
    disabled_count: 0,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

export const idempotency = (
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

export async function expectStoreError(
  promise: Promise<unknown>,
  code: StoreErrorCode,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isStoreError(error, code), `expected a ${code} StoreError, got ${String(error)}`).toBe(
    true,
  );
}

/** Runs a test against a fresh store and closes it after. */
export type WithStore = (test: (store: StoreV1) => Promise<void>) => Promise<void>;

/**
 * What a second transaction sees when it locks what a first one holds: the first locks,
 * waits a while, writes and commits; the second locks meanwhile. A lock that holds until
 * COMMIT makes the second wait and read the first one's write; the steps come back in the
 * order they happened.
 */
export async function contendedLock<T>(
  store: StoreV1,
  lock: (tx: Parameters<Parameters<StoreV1['transaction']>[0]>[0]) => Promise<T>,
  write: (tx: Parameters<Parameters<StoreV1['transaction']>[0]>[0]) => Promise<void>,
  describeSeen: (seen: T) => string,
): Promise<string[]> {
  const steps: string[] = [];
  let locked!: () => void;
  const firstLocked = new Promise<void>((resolve) => (locked = resolve));
  const first = store.transaction(async (tx) => {
    await lock(tx);
    locked();
    await new Promise((resolve) => setTimeout(resolve, 150));
    await write(tx);
    steps.push('first writes and commits');
  });
  await firstLocked;
  const second = store.transaction(async (tx) => {
    const seen = await lock(tx);
    steps.push(`second sees ${describeSeen(seen)}`);
  });
  await Promise.all([first, second]);
  return steps;
}
