import type { CompiledScenario } from '@programrun/dsl';
import type { ScenarioCatalogue } from '../catalogue/scenario-catalogue.js';
import { EngineError } from '../errors.js';
import type { ActivationPosture } from '../runs/run-record.js';
import type { IssuerActivationRow } from '../store/store-v1.js';

/** An account's issuer activation of a restricted scenario, as the API shows it. */
export interface IssuerActivationRecord {
  readonly object: 'issuer_activation';
  readonly account: string;
  /** Scenario name (every version), e.g. `reserve-usd-cycle`. */
  readonly scenario: string;
  readonly status: 'active' | 'revoked';
  readonly reference: string;
  readonly activated_at: string;
  readonly revoked_at: string | null;
}

/** What activating takes. */
export interface ActivateIssuerInput {
  /** Scenario name without version, e.g. `reserve-usd-cycle`. */
  readonly scenario: string;
  /** The issuer's reference for the activation: agreement, onboarding case, ticket. */
  readonly reference: string;
}

/** Result of an activation: the activation and the suspended runs it started. */
export interface ActivationResult {
  readonly activation: IssuerActivationRecord;
  /** Ids of live runs that were waiting `suspended` and have now left intake. */
  readonly resumed_runs: readonly string[];
}

/**
 * The API form of a stored activation.
 */
export function toActivationRecord(row: IssuerActivationRow): IssuerActivationRecord {
  return {
    object: 'issuer_activation',
    account: row.account,
    scenario: row.scenario,
    status: row.status,
    reference: row.reference,
    activated_at: row.activated_at,
    revoked_at: row.revoked_at,
  };
}

/**
 * The activation posture a new live run gets from the account's activation row.
 */
export function activationPosture(row: IssuerActivationRow | undefined): ActivationPosture {
  return row?.status === 'active'
    ? { required: true, status: 'active', reference: row.reference, activated_at: row.activated_at }
    : { required: true, status: 'pending', reference: null, activated_at: null };
}

/**
 * True when a run of this scenario in this environment needs an issuer activation:
 * live runs of `restricted` scenarios.
 */
export function needsActivation(compiled: CompiledScenario, environment: 'test' | 'live'): boolean {
  return environment === 'live' && compiled.definition.asset_track === 'restricted';
}

/**
 * Checks an activation request: a restricted scenario of the catalogue (by name) and a
 * reference; returns the scenario name.
 */
export function assertActivation(catalogue: ScenarioCatalogue, input: ActivateIssuerInput): string {
  if (
    typeof input.reference !== 'string' ||
    input.reference.trim() === '' ||
    input.reference.length > 200
  ) {
    throw new EngineError(
      'invalid_activation',
      "reference is required: the issuer's reference for the activation (at most 200 characters).",
    );
  }
  return assertRestrictedScenario(catalogue, input.scenario);
}

/**
 * The name of a restricted scenario of the catalogue; `scenario_not_found` or
 * `scenario_not_restricted` otherwise.
 */
export function assertRestrictedScenario(catalogue: ScenarioCatalogue, scenario: unknown): string {
  const versions = catalogue.list().filter((compiled) => compiled.definition.scenario === scenario);
  if (typeof scenario !== 'string' || versions.length === 0) {
    const restricted = [
      ...new Set(
        catalogue
          .list()
          .filter((compiled) => compiled.definition.asset_track === 'restricted')
          .map((compiled) => compiled.definition.scenario),
      ),
    ];
    throw new EngineError(
      'scenario_not_found',
      `No scenario named "${String(scenario)}"; restricted scenarios are: ${restricted.join(', ') || 'none'}. Use the name without @version.`,
    );
  }
  if (!versions.some((compiled) => compiled.definition.asset_track === 'restricted')) {
    throw new EngineError(
      'scenario_not_restricted',
      `${scenario} is on the ${versions[0]!.definition.asset_track} track; only restricted scenarios need an issuer activation.`,
    );
  }
  return scenario;
}
