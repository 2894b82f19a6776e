import { randomBytes } from 'node:crypto';
import type { StoreTransactionV1 } from '@programrun/engine';
import { IDEMPOTENCY_KEY, type CapturedCreate } from './create-template.js';
import type { RecordedCall } from './recording-store.js';

/** A token of the same length and prefix (`prun_`, `evt_`, `tmr_`), random otherwise. */
function fresh(token: string): string {
  const prefix = /^[a-z]+_/.exec(token)?.[0] ?? '';
  const random = randomBytes(token.length).toString('hex');
  return prefix + random.slice(0, token.length - prefix.length);
}

/**
 * A factory of copies of `value` (calls captured from one create) in which the create's
 * identifiers (run id, event ids, timer ids, Idempotency-Key) are replaced by fresh ones
 * of the same length, so every replay inserts new rows of the captured sizes.
 *
 * @example
 * ```ts
 * const next = freshCopies(captured, captured.calls);
 * await store.transaction((tx) => replay(tx, next()));
 * ```
 */
export function freshCopies<T>(captured: CapturedCreate, value: T): () => T {
  const tokens = [
    captured.run.id,
    IDEMPOTENCY_KEY,
    ...captured.events.map((event) => event.id),
    ...captured.timers.map((timer) => timer.id),
  ];
  const pattern = new RegExp(tokens.join('|'), 'g');
  const text = JSON.stringify(value);
  const parts = text.split(pattern);
  const order = [...text.matchAll(pattern)].map((match) => match[0]);
  return () => {
    const replacements = new Map(tokens.map((token) => [token, fresh(token)]));
    let copy = parts[0]!;
    for (let index = 0; index < order.length; index += 1) {
      copy += replacements.get(order[index]!)! + parts[index + 1]!;
    }
    return JSON.parse(copy) as T;
  };
}

/**
 * Runs recorded calls in a transaction, in order.
 *
 * @example
 * ```ts
 * await store.transaction((tx) => replay(tx, next()));
 * ```
 */
export async function replay(
  tx: StoreTransactionV1,
  calls: readonly RecordedCall[],
): Promise<void> {
  const operations = tx as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const call of calls) await operations[call.method]!(...call.args);
}
