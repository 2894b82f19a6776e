// A small, valid evidence bundle for the tests: a run of `wallet-delivery@v1` whose
// lifecycle is a created record, then completed records, hash-chained.
import type { EvidenceBundle, EvidenceRecord } from '../../src/bundle/evidence-bundle.js';
import { EVIDENCE_BUNDLE_SCHEMA } from '../../src/bundle/evidence-bundle.js';
import { canonicalDigest } from '../../src/digest.js';
import type { EvidenceEnvironment } from '../../src/environment.js';
import { linkRecord } from '../../src/hash-chain.js';

/** What a test sets of {@link sampleBundle}. */
export interface SampleBundleOptions {
  /** The signing key's id. */
  readonly kid: string;
  readonly runId?: string;
  readonly environment?: EvidenceEnvironment;
  /** How many lifecycle records (at least 1). */
  readonly records?: number;
  /** Run fields that differ from the sample's. */
  readonly run?: Partial<EvidenceBundle['run']>;
  /** Other bundle fields that differ (parties, stages, …). */
  readonly bundle?: Partial<Omit<EvidenceBundle, 'run' | 'lifecycle'>>;
}

/** The lifecycle of a sample run: `created`, then `completed` records. */
function sampleRecords(runId: string, count: number): EvidenceRecord[] {
  const records: EvidenceRecord[] = [];
  for (let sequence = 1; sequence <= count; sequence++) {
    records.push(
      linkRecord<EvidenceRecord>(
        {
          id: `evt_${sequence}`,
          run_id: runId,
          sequence,
          type: sequence === 1 ? 'program_run.created' : 'program_run.completed',
          stage: 'intake',
          step: null,
          created: '2026-01-01T00:00:00.000Z',
          data: {},
        },
        records.at(-1)?.hash ?? null,
      ),
    );
  }
  return records;
}

/** A valid, unsigned evidence bundle. */
export function sampleBundle(options: SampleBundleOptions): EvidenceBundle {
  const { kid, runId = 'prun_sample', environment = 'test', records: count = 1 } = options;
  const records = sampleRecords(runId, count);
  return {
    schema: EVIDENCE_BUNDLE_SCHEMA,
    generated_at: '2026-01-01T00:00:00.000Z',
    signing: { kid, algorithm: 'Ed25519' },
    run: {
      id: runId,
      livemode: environment === 'live',
      environment,
      scenario_id: 'wallet-delivery@v1',
      scenario_digest: canonicalDigest({ scenario: 'wallet' }),
      family: 'wallet_delivery',
      asset_track: 'public_demo',
      status: 'completed',
      stage: 'delivery',
      outcome: null,
      inputs_digest: canonicalDigest({}),
      inputs: {},
      session_id: null,
      source_path: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      completed_at: '2026-01-01T00:00:00.000Z',
      ...options.run,
    },
    parties: [],
    stages: [],
    route_selections: [],
    delivery_objects: [],
    recorded_facts: [],
    approvals: [],
    handoffs: [],
    policy: {},
    ...options.bundle,
    lifecycle: { records, length: records.length, chain_head: records.at(-1)!.hash },
  };
}
