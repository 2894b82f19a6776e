import { verifyEvidence, type Jwks } from '@programrun/evidence';
import type { Trace } from './run-trace.js';
import { chainViolations } from './trace-checks.js';

/**
 * Whether a trace's evidence verifies: its lifecycle hash chain up to the run's chain
 * head, one `evidence.sealed` record last once the run is final, and, when the trace
 * exported one, the signed DSSE evidence bundle, verified offline with `verifyEvidence`
 * against `jwks`, whose chain head is the run's. Empty when all of it holds.
 *
 * @example
 * ```ts
 * const trace = await runTrace(compiled, inputs, plan, 'seed-1', { evidenceKeys: keys });
 * evidenceViolations(trace, keys.publicJwks()); // []
 * ```
 */
export function evidenceViolations(trace: Trace, jwks: Jwks | null): string[] {
  const violations = chainViolations(trace);
  if (trace.evidence === null || jwks === null) return violations;
  const verification = verifyEvidence(trace.evidence, jwks);
  if (!verification.ok) {
    const failure = verification.failure;
    violations.push(
      `evidence bundle: ${failure ? `${failure.name}: ${failure.detail}` : 'does not verify'}`,
    );
  } else if (verification.bundle?.lifecycle.chain_head !== trace.run.evidence.chain_head) {
    violations.push(
      `evidence bundle: chain head ${verification.bundle?.lifecycle.chain_head ?? 'null'} is not the run's ${trace.run.evidence.chain_head ?? 'null'}`,
    );
  }
  return violations;
}
