import type { RunEnvironment } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import type { Scope } from './run-spec.js';

/**
 * The answer kept under a caller's idempotency key (the HTTP layer keeps an
 * `Idempotency-Key`'s response there). The store keeps `answer` as an opaque JSON document.
 */
export interface IdempotencyRecord {
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly key: string;
  /** Digest of what makes two requests "the same" (the caller decides). */
  readonly fingerprint: string;
  /** `completed` once an answer is kept; `in_flight` for a claim without one. */
  readonly state: 'in_flight' | 'completed';
  /** The caller's answer, opaque to the store; null while in flight. */
  readonly response: JsonObject | null;
  /** ISO time until which an in-flight claim holds the key. */
  readonly locked_until: string;
  readonly created_at: string;
  readonly expires_at: string;
}

/** Answers kept under idempotency keys, per scope. */
export interface IdempotencyOperations {
  /**
   * Reads the record of (scope, key) **and holds the key until the transaction ends**,
   * whether a record exists or not: another transaction locking the same key waits for
   * this one to commit or roll back, then reads what it wrote. So the first request with a
   * key keeps it to itself until its answer is stored, and a concurrent duplicate replays it.
   */
  lockIdempotencyRecord(scope: Scope, key: string): Promise<IdempotencyRecord | undefined>;
  /** Inserts or replaces the record for (scope, key). */
  putIdempotencyRecord(record: IdempotencyRecord): Promise<void>;
  deleteIdempotencyRecord(scope: Scope, key: string): Promise<void>;
  /** Deletes records that expired before `now`; returns how many. */
  purgeIdempotencyRecords(now: string): Promise<number>;
}
