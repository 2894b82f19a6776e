import { linkRecord, type JsonObject, type Sha256Digest } from '@programrun/evidence';
import { deterministicId } from '../ids/deterministic-id.js';
import type { LifecycleRecord } from './lifecycle-record.js';
import { recordTypeOf } from './event-types.js';

/** A fact about to become a record (machine facts after the engine enriched them). */
export interface PendingFact {
  readonly type: string;
  readonly stage: string | null;
  readonly step: string | null;
  readonly data: JsonObject;
}

/**
 * The deterministic id of a run's record: `evt_` and 32 hex digits of sha-256 over
 * `<run id>:<sequence>`, so redeliveries and re-exports carry the same id.
 *
 * @example
 * ```ts
 * eventId('prun_123', 1); // 'evt_…' (always the same)
 * ```
 */
export function eventId(runId: string, sequence: number): string {
  return deterministicId('evt', `${runId}:${sequence}`);
}

/**
 * Turns facts into hash-chained lifecycle records continuing after `prev`.
 */
export function buildRecords(
  runId: string,
  previous: { readonly sequence: number; readonly hash: Sha256Digest | null },
  created: string,
  facts: readonly PendingFact[],
): LifecycleRecord[] {
  const records: LifecycleRecord[] = [];
  let prev = previous.hash;
  let sequence = previous.sequence;
  for (const fact of facts) {
    sequence += 1;
    const record = linkRecord<LifecycleRecord>(
      {
        id: eventId(runId, sequence),
        run_id: runId,
        sequence,
        type: recordTypeOf(fact.type),
        stage: fact.stage,
        step: fact.step,
        created,
        data: fact.data,
      },
      prev,
    );
    records.push(record);
    prev = record.hash;
  }
  return records;
}
