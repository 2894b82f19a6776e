import type { JsonObject } from '../canonical-json.js';
import type { Sha256Digest } from '../digest.js';
import type { EvidenceEnvironment } from '../environment.js';

/** DSSE payload type of programrun evidence. */
export const EVIDENCE_PAYLOAD_TYPE = 'application/vnd.programrun.evidence.v1+json';
/** in-toto predicate type of the evidence bundle. */
export const EVIDENCE_PREDICATE_TYPE = 'https://programrun.dev/evidence/v1';
/** JSON Schema id of the bundle (docs/reference/evidence-bundle.schema.json). */
export const EVIDENCE_BUNDLE_SCHEMA = 'https://programrun.dev/schemas/evidence-bundle.v1.json';
/** in-toto Statement v1 type. */
export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';

/**
 * One hash-chained lifecycle record, as the engine stores it: `hash` is the sha-256 of
 * the RFC 8785 JSON of the record without `hash`, and `prev` the hash before it.
 */
export interface EvidenceRecord {
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

/**
 * The evidence bundle: everything a run's proof of completion promises, machine-readable.
 * Every list except `parties`, `stages` and `policy` is a view of `lifecycle.records`,
 * which are hash-chained and end in `lifecycle.chain_head`.
 */
export interface EvidenceBundle {
  readonly schema: typeof EVIDENCE_BUNDLE_SCHEMA;
  readonly generated_at: string;
  /** The key that signed this bundle, also named in the envelope's `keyid`. */
  readonly signing: { readonly kid: string; readonly algorithm: 'Ed25519' };
  readonly run: {
    readonly id: string;
    readonly livemode: boolean;
    readonly environment: EvidenceEnvironment;
    readonly scenario_id: string;
    readonly scenario_digest: Sha256Digest;
    readonly family: string;
    readonly asset_track: string;
    readonly status: string;
    readonly stage: string | null;
    readonly outcome: JsonObject | null;
    readonly inputs_digest: Sha256Digest;
    readonly inputs: JsonObject;
    readonly session_id: string | null;
    readonly source_path: string | null;
    readonly created_at: string;
    readonly updated_at: string;
    readonly completed_at: string | null;
  };
  readonly parties: readonly {
    readonly id: string;
    readonly name: string;
    readonly role: string;
    readonly kind: string;
    readonly status: string;
    readonly steps: readonly string[];
  }[];
  readonly stages: readonly {
    readonly id: string;
    readonly title: string;
    readonly status: string;
    readonly started_at: string | null;
    readonly completed_at: string | null;
  }[];
  readonly route_selections: readonly JsonObject[];
  readonly delivery_objects: readonly JsonObject[];
  readonly recorded_facts: readonly JsonObject[];
  readonly approvals: readonly JsonObject[];
  readonly handoffs: readonly JsonObject[];
  readonly policy: JsonObject;
  readonly lifecycle: {
    readonly records: readonly EvidenceRecord[];
    readonly length: number;
    readonly chain_head: Sha256Digest | null;
  };
}

/** The in-toto Statement v1 whose predicate is the bundle. */
export interface EvidenceStatement {
  readonly _type: typeof IN_TOTO_STATEMENT_TYPE;
  readonly subject: readonly [
    { readonly name: string; readonly digest: { readonly sha256: string } },
  ];
  readonly predicateType: typeof EVIDENCE_PREDICATE_TYPE;
  readonly predicate: EvidenceBundle;
}
