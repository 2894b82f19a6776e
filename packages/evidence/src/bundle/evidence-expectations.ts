import type { EvidenceEnvironment } from '../environment.js';
import type { EvidenceBundle } from './evidence-bundle.js';

/**
 * What a verifier expects evidence to be about. A valid bundle of another run, environment,
 * scenario or key is still a valid bundle: pin what you expect and `verifyEvidence` fails
 * at its `expected` check when the signed bundle says otherwise. Every field is optional;
 * each one given must match.
 */
export interface EvidenceExpectations {
  /** The run, `prun_…` (the bundle's `run.id` and the statement's subject). */
  readonly runId?: string;
  /** The environment the run ran in (the bundle's `run.environment` and `run.livemode`). */
  readonly environment?: EvidenceEnvironment;
  /** The scenario and version, `wallet-delivery@v1` (the bundle's `run.scenario_id`). */
  readonly scenarioId?: string;
  /** The scenario's digest, `sha256:…` (the bundle's `run.scenario_digest`). */
  readonly scenarioDigest?: string;
  /** The key that must have signed, by its RFC 7638 thumbprint (the bundle's `signing.kid`). */
  readonly kid?: string;
}

type Pin = readonly [
  label: string,
  expected: string | undefined,
  actual: (bundle: EvidenceBundle) => string,
];

function pins(expectations: EvidenceExpectations): Pin[] {
  const all: Pin[] = [
    ['run', expectations.runId, (bundle) => bundle.run.id],
    // The statement check has made sure run.livemode agrees with run.environment.
    ['environment', expectations.environment, (bundle) => bundle.run.environment],
    ['scenario', expectations.scenarioId, (bundle) => bundle.run.scenario_id],
    ['scenario digest', expectations.scenarioDigest, (bundle) => bundle.run.scenario_digest],
    ['key', expectations.kid, (bundle) => bundle.signing.kid],
  ];
  return all.filter(([, expected]) => expected !== undefined);
}

/** True when at least one expectation is given. */
export function hasExpectations(expectations: EvidenceExpectations): boolean {
  return pins(expectations).length > 0;
}

/**
 * The expectations a bundle does not meet, one phrase each (`run prun_B, expected
 * prun_A`); empty when it meets them all. Only meaningful for a bundle whose signature
 * and chain verified.
 */
export function unmetExpectations(
  bundle: EvidenceBundle,
  expectations: EvidenceExpectations,
): string[] {
  return pins(expectations).flatMap(([label, expected, actual]) => {
    const value = actual(bundle);
    return value === expected ? [] : [`${label} ${value}, expected ${expected}`];
  });
}

/** The expectations as one phrase, for the passed check (`run prun_A, environment live`). */
export function describeExpectations(expectations: EvidenceExpectations): string {
  return pins(expectations)
    .map(([label, expected]) => `${label} ${expected}`)
    .join(', ');
}
