import type { Trace } from './run-trace.js';

/**
 * How two traces of the same inputs, plan and seed differ: chain head, the first
 * lifecycle record that differs, the action outcomes, the final status, the evidence
 * bundle. Empty when they are identical, as a deterministic engine makes them.
 *
 * @example
 * ```ts
 * determinismViolations(await runTrace(c, i, p, 's'), await runTrace(c, i, p, 's')); // []
 * ```
 */
export function determinismViolations(first: Trace, second: Trace): string[] {
  const violations: string[] = [];
  if (first.run.evidence.chain_head !== second.run.evidence.chain_head) {
    violations.push(
      `chain head ${first.run.evidence.chain_head ?? 'null'} then ${second.run.evidence.chain_head ?? 'null'}`,
    );
  }
  const length = Math.max(first.records.length, second.records.length);
  for (let index = 0; index < length; index += 1) {
    const left = first.records[index];
    const right = second.records[index];
    if (JSON.stringify(left) === JSON.stringify(right)) continue;
    violations.push(
      `record ${index + 1} differs: ${left ? `${left.type} ${left.hash}` : 'none'} then ${right ? `${right.type} ${right.hash}` : 'none'}`,
    );
    break;
  }
  const action = first.log.findIndex((line, index) => line !== second.log[index]);
  if (action >= 0 || first.log.length !== second.log.length) {
    const at = action >= 0 ? action : Math.min(first.log.length, second.log.length);
    violations.push(
      `action ${at + 1} did "${first.log[at] ?? 'nothing'}" then "${second.log[at] ?? 'nothing'}"`,
    );
  }
  if (first.run.status !== second.run.status)
    violations.push(`ended ${first.run.status} then ${second.run.status}`);
  if (JSON.stringify(first.evidence) !== JSON.stringify(second.evidence))
    violations.push('the exported evidence bundles differ');
  return violations;
}
