import type { JsonObject, Sha256Digest } from '@programrun/evidence';

/**
 * One lifecycle record: the single source of truth that webhook events, `GET …/events`
 * and evidence bundles are views of. Records of a run form a hash chain: `hash` is the
 * sha-256 of the RFC 8785 JSON of the record without `hash`, and `prev` the hash before.
 */
export interface LifecycleRecord {
  /** Deterministic: `evt_` + digest of run id and sequence. */
  readonly id: string;
  readonly run_id: string;
  /** 1-based, contiguous per run. */
  readonly sequence: number;
  /** `program_run.<fact>`, e.g. `program_run.handoff.requested`. */
  readonly type: string;
  readonly stage: string | null;
  readonly step: string | null;
  /** ISO 8601 time on the run's environment clock. */
  readonly created: string;
  readonly data: JsonObject;
  readonly prev: Sha256Digest | null;
  readonly hash: Sha256Digest;
}
