import { expect, it } from 'vitest';
import type { StoreTransactionV1 } from '../store/store-v1.js';
import {
  expectStoreError,
  idempotency,
  record,
  scope,
  storedRun,
  timer,
  type WithStore,
} from './fixtures.js';

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const INT_MAX = 2 ** 31 - 1;

type Operation = (tx: StoreTransactionV1) => Promise<unknown>;

/** Writes and reads no store can serve alike, each refused with `unstorable_value`. */
const REFUSED: readonly (readonly [string, Operation])[] = [
  ['NUL in a run id', (tx) => tx.insertRun(storedRun(`prun_${NUL}`))],
  ['NUL in an account', (tx) => tx.insertRun(storedRun('prun_1', { account: NUL }))],
  [
    'NUL in an idempotency key',
    (tx) => tx.insertRun(storedRun('prun_1', { idempotency_key: NUL })),
  ],
  [
    'NUL inside a document',
    (tx) => tx.insertRun(storedRun('prun_1', { record: { note: NUL } as never })),
  ],
  [
    'NUL in a document key',
    (tx) => tx.appendRecords(scope, [{ ...record('prun_1', 1), data: { [NUL]: 1 } }]),
  ],
  [
    'an unpaired surrogate in a text column',
    (tx) => tx.insertRun(storedRun('prun_1', { scenario_id: LONE })),
  ],
  [
    'an unpaired surrogate inside a document',
    (tx) =>
      tx.scheduleTimers([timer('tmr_1', '2026-01-01T00:00:00.000Z', { payload: { x: LONE } })]),
  ],
  ['NUL in a looked-up id', (tx) => tx.getRun(scope, `prun_${NUL}`)],
  ['NUL in a looked-up key', (tx) => tx.findRunByIdempotencyKey(scope, NUL)],
  ['NUL in a list cursor', (tx) => tx.listRuns(scope, { limit: 10, starting_after: NUL })],
  ['NUL in a scope', (tx) => tx.lockIdempotencyRecord({ ...scope, account: NUL }, 'key-1')],
  ['NUL in an event id', (tx) => tx.getWebhookEvent(scope, `evt_${NUL}`)],
  [
    'a sequence beyond a SQL integer',
    (tx) => tx.listRecords(scope, 'prun_1', { afterSequence: INT_MAX + 1 }),
  ],
  ['a fractional sequence', (tx) => tx.listRecords(scope, 'prun_1', { afterSequence: 1.5 })],
  ['an infinite limit', (tx) => tx.listRuns(scope, { limit: Number.POSITIVE_INFINITY })],
  [
    'a version beyond a SQL integer',
    (tx) => tx.insertRun(storedRun('prun_1', { version: INT_MAX + 1 })),
  ],
  [
    'an expected version beyond a SQL integer',
    (tx) => tx.updateRun(storedRun('prun_1', { version: 2 }), 2 ** 40),
  ],
  [
    'a record sequence beyond a SQL integer',
    (tx) => tx.appendRecords(scope, [record('prun_1', 2 ** 31)]),
  ],
  [
    'a number that is not finite inside a document',
    (tx) => tx.appendRecords(scope, [{ ...record('prun_1', 1), data: { n: Number.NaN } }]),
  ],
  [
    'a test clock offset beyond a safe integer',
    (tx) =>
      tx.putTestClock({
        account: 'acct_a',
        offset_ms: 2 ** 53,
        updated_at: '2026-01-01T00:00:00.000Z',
      }),
  ],
  ['NUL in an Idempotency-Key record', (tx) => tx.putIdempotencyRecord(idempotency(NUL))],
];

/**
 * The Store spec v1 contract for values a store cannot keep: every store refuses the
 * same ones (text with U+0000 or an unpaired surrogate, anywhere; numbers that are not
 * finite; integer columns beyond a SQL `integer`) with an `unstorable_value` StoreError,
 * before writing anything and without spoiling the transaction, and keeps everything
 * else exactly (other control characters, U+FFFD, surrogate pairs, the integer bounds).
 */
export function defineUnstorableContract(withStore: WithStore): void {
  it.each(REFUSED)('refuses %s with unstorable_value', (_name, operation) =>
    withStore(async (store) => {
      await expectStoreError(store.transaction(operation), 'unstorable_value');
      await store.transaction(async (tx) => {
        expect(await tx.getRun(scope, 'prun_1')).toBeUndefined();
        expect(await tx.listRecords(scope, 'prun_1')).toEqual([]);
      });
    }),
  );
  it('keeps a transaction usable after a refusal', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.insertRun(storedRun('prun_1'));
        await expectStoreError(tx.insertRun(storedRun(`prun_${NUL}`)), 'unstorable_value');
        await tx.insertRun(storedRun('prun_2'));
      });
      await store.transaction(async (tx) => {
        expect((await tx.listRuns(scope, { limit: 10 })).data.map((run) => run.id)).toEqual([
          'prun_2',
          'prun_1',
        ]);
      });
    }));
  it('stores other hard text and the integer bounds exactly', () =>
    withStore(async (store) => {
      const hard = 'tab\t\u0001\u001f\u007f \ufffd \ud83d\udcb8 \u202e ü';
      const run = storedRun(`prun_${hard}`, {
        idempotency_key: hard,
        last_sequence: INT_MAX,
        record: { note: hard, [hard]: [hard], big: 2 ** 60, small: -0.5 } as never,
      });
      await store.transaction((tx) => tx.insertRun(run));
      await store.transaction(async (tx) => {
        expect(await tx.getRun(scope, `prun_${hard}`)).toEqual(run);
        expect(await tx.findRunByIdempotencyKey(scope, hard)).toEqual(run);
        expect(await tx.listRecords(scope, run.id, { afterSequence: INT_MAX })).toEqual([]);
        await tx.putTestClock({
          account: 'acct_a',
          offset_ms: 2 ** 40,
          updated_at: '2026-01-01T00:00:00.000Z',
        });
        expect((await tx.getTestClock('acct_a'))?.offset_ms).toBe(2 ** 40);
      });
    }));
}
