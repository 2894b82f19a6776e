/**
 * The environment evidence comes from: `test` (sandbox runs, simulated partners) or `live`.
 * The bundle states it (`run.environment`), under the signature, and each environment has
 * its own signing keys, marked in the JWKS with the same name.
 */
export type EvidenceEnvironment = 'test' | 'live';

/** Both environments, test first. */
export const EVIDENCE_ENVIRONMENTS: readonly EvidenceEnvironment[] = ['test', 'live'];

/**
 * True when `value` is `test` or `live`.
 *
 * @example
 * ```ts
 * isEvidenceEnvironment('live'); // true
 * isEvidenceEnvironment('production'); // false
 * ```
 */
export function isEvidenceEnvironment(value: unknown): value is EvidenceEnvironment {
  return value === 'test' || value === 'live';
}
