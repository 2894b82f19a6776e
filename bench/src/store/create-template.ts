import type { CompiledScenario } from '@programrun/dsl';
import {
  createAccounts,
  createEngine,
  createMemoryStore,
  lifecycleEventRows,
  type IdempotencyRecord,
  type LifecycleRecord,
  type StoredRun,
  type StoreTransactionV1,
  type TimerRow,
  type TransitionWrite,
  type WebhookEventRow,
} from '@programrun/engine';
import { createHandler } from '@programrun/http';
import { BENCH_KEY, createRunHeaders } from '../servers/bench-key.js';
import { recordingStore, type RecordedCall } from './recording-store.js';

/** The body of `POST /v1/program-runs` every store benchmark sends. */
export const createBody = (compiled: CompiledScenario): string =>
  JSON.stringify({
    scenario_id: compiled.id,
    session_id: 'sess_bench',
    inputs: compiled.definition.example_inputs,
  });

/** The operations of the create transaction the raw replay keeps (its writes, and the key lookup). */
const CREATE_WRITES: readonly (keyof StoreTransactionV1)[] = [
  'findRunByIdempotencyKey',
  'writeTransition',
];

/** What one HTTP create did to the store, and the rows it wrote. */
export interface CapturedCreate {
  /** Every transaction of one request on a warm host with its calls, in order. */
  readonly sequence: readonly (readonly RecordedCall[])[];
  /** The raw transaction: idempotency lookup, the create's writes, the idempotency record. */
  readonly calls: readonly RecordedCall[];
  readonly run: StoredRun;
  readonly records: readonly LifecycleRecord[];
  readonly events: readonly WebhookEventRow[];
  readonly timers: readonly TimerRow[];
  readonly idempotency: IdempotencyRecord;
}

/** The Idempotency-Key of the captured request (a UUID, as clients send). */
export const IDEMPOTENCY_KEY = '00000000-0000-4000-8000-000000000000';

/**
 * Sends one real `POST /v1/program-runs` through the HTTP handler over a recording memory
 * store and returns what it did: the operations per transaction and the rows it wrote.
 *
 * @example
 * ```ts
 * const captured = await captureCreate(await loadCompiled('wallet-delivery@v1'));
 * ```
 */
export async function captureCreate(compiled: CompiledScenario): Promise<CapturedCreate> {
  const recording = recordingStore(createMemoryStore());
  const engine = createEngine({ store: recording.store, scenarios: [compiled] });
  const accounts = createAccounts({ store: recording.store });
  await accounts.apiKeys.create({ account: 'acct_bench', environment: 'test', secret: BENCH_KEY });
  const handler = createHandler({ engine, accounts, rateLimit: false });
  // A first request warms what a busy host keeps warm (the key's authentication is cached).
  const warmUp = await handler.handle(
    new Request('http://localhost/v1/program-runs', {
      method: 'POST',
      headers: createRunHeaders(crypto.randomUUID()),
      body: createBody(compiled),
    }),
  );
  if (warmUp.status !== 201) throw new Error(`capture: warm-up answered ${warmUp.status}`);
  recording.transactions.length = 0;
  const response = await handler.handle(
    new Request('http://localhost/v1/program-runs', {
      method: 'POST',
      headers: createRunHeaders(IDEMPOTENCY_KEY),
      body: createBody(compiled),
    }),
  );
  if (response.status !== 201) throw new Error(`capture: create answered ${response.status}`);
  // Copies, so later changes to the memory store's objects cannot leak in.
  const sequence = structuredClone(recording.transactions.map((transaction) => transaction.calls));
  const all = sequence.flat();
  const find = (method: keyof StoreTransactionV1): RecordedCall => {
    const call = all.findLast((item) => item.method === method);
    if (!call) throw new Error(`capture: the create did not call ${method}`);
    return call;
  };
  const calls = [
    find('lockIdempotencyRecord'),
    ...all.filter((call) => CREATE_WRITES.includes(call.method)),
    find('putIdempotencyRecord'),
  ];
  // The create's one write: the run, its records and events, its first timers.
  const write = find('writeTransition').args[0] as TransitionWrite;
  return {
    sequence,
    calls,
    run: write.run,
    records: write.records,
    events: lifecycleEventRows(write.run, write.records),
    timers: write.scheduleTimers,
    idempotency: find('putIdempotencyRecord').args[0] as IdempotencyRecord,
  };
}
