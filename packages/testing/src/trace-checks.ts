import type { CompiledScenario } from '@programrun/dsl';
import { verifyChain } from '@programrun/evidence';
import { invariantViolations } from './invariant-checks.js';
import type { Trace } from './run-trace.js';

/**
 * The hash chain and sealing of a trace's history: `verifyChain` over its records up to
 * the run's chain head, and, once the run is final, exactly one `evidence.sealed` record,
 * last. Empty when both hold.
 *
 * @example
 * ```ts
 * expect(chainViolations(trace)).toEqual([]);
 * ```
 */
export function chainViolations(trace: Trace): string[] {
  const violations: string[] = [];
  const chain = verifyChain(trace.records, { expectedHead: trace.run.evidence.chain_head });
  if (!chain.ok) violations.push(`hash chain: ${chain.message} at index ${chain.index}`);
  const sealed = trace.records.filter((record) => record.type === 'program_run.evidence.sealed');
  if (
    trace.terminated &&
    (sealed.length !== 1 || trace.records.at(-1)?.type !== 'program_run.evidence.sealed')
  ) {
    violations.push(
      `a finished run must end in exactly one evidence.sealed record (found ${sealed.length})`,
    );
  }
  return violations;
}

/**
 * Every way a trace breaks the scenario's promises: its hash chain, its declared
 * invariants (every kind: precedence, exclusion, response), a wait without a deadline,
 * a run that never ends, or a finished run whose history is not sealed exactly once at
 * its end. Empty when the trace is sound. `checkScenario` checks the same and more, one
 * property at a time.
 *
 * @example
 * ```ts
 * expect(traceViolations(compiled, trace)).toEqual([]);
 * ```
 */
export function traceViolations(compiled: CompiledScenario, trace: Trace): string[] {
  const violations = chainViolations(trace);
  if (!trace.terminated)
    violations.push(
      `never terminated: still ${trace.run.status} at ${trace.run.awaiting?.step ?? '-'}`,
    );
  if (trace.run.status === 'waiting' && trace.run.awaiting?.deadline === null) {
    violations.push(`waits for ${trace.run.awaiting.step} without a deadline`);
  }
  violations.push(...invariantViolations(compiled, trace.records, trace.run.status));
  return violations;
}
