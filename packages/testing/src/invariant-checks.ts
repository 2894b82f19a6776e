import type { CompiledScenario } from '@programrun/dsl';
import type { LifecycleRecord, RunStatus } from '@programrun/engine';
import { completesStep, startsStep } from './step-completion.js';

type RawInvariant = Readonly<Record<string, unknown>>;

/** A step list field of an invariant, or undefined when the invariant has no such field. */
function steps(invariant: RawInvariant, field: string): readonly string[] | undefined {
  const value = invariant[field];
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : undefined;
}

/**
 * Every declared invariant a trace's lifecycle records break, one message each. The
 * kind is read from the fields present, so every shape of invariant is handled:
 *
 * - precedence (`before` + `then`): no `then` step starts before every `before` step
 *   has completed;
 * - exclusion (`never_together`): no run completes two different steps of the list;
 * - response (`after` + `eventually`): a run that ends `completed` and completed an
 *   `after` step completes an `eventually` step later on (runs that fault or are
 *   cancelled are not bound).
 *
 * @example
 * ```ts
 * invariantViolations(compiled, trace.records, trace.run.status);
 * // ['invariant approved_before_posting: debit_payer started at #14 before payer_approval completed']
 * ```
 */
export function invariantViolations(
  compiled: CompiledScenario,
  records: readonly LifecycleRecord[],
  status: RunStatus,
): string[] {
  const invariants = compiled.definition.invariants as unknown as readonly RawInvariant[];
  const violations: string[] = [];
  /** Sequence of each step's last completion. */
  const completed = new Map<string, number>();
  for (const record of records) {
    const step = record.step === null ? undefined : compiled.graph.steps.get(record.step);
    if (!step) continue;
    if (startsStep(record, step.kind)) {
      for (const invariant of invariants) {
        const before = steps(invariant, 'before');
        if (!before || !steps(invariant, 'then')?.includes(step.id)) continue;
        const missing = before.filter((id) => !completed.has(id));
        if (missing.length > 0) {
          violations.push(
            `invariant ${String(invariant.id)}: ${step.id} started at #${record.sequence} before ${missing.join(', ')} completed`,
          );
        }
      }
    }
    if (completesStep(record, step.kind)) completed.set(step.id, record.sequence);
  }
  for (const invariant of invariants) {
    const exclusive = steps(invariant, 'never_together');
    if (exclusive) {
      const both = exclusive.filter((id) => completed.has(id));
      if (new Set(both).size > 1) {
        violations.push(
          `invariant ${String(invariant.id)}: completed ${both.map((id) => `${id} (#${completed.get(id)})`).join(' and ')}, which must never happen together`,
        );
      }
    }
    const after = steps(invariant, 'after');
    const eventually = steps(invariant, 'eventually');
    if (after && eventually && status === 'completed') {
      const last = Math.max(-1, ...after.map((id) => completed.get(id) ?? -1));
      const answered = eventually.some((id) => (completed.get(id) ?? -1) > last);
      if (last >= 0 && !answered) {
        const trigger = after.find((id) => completed.get(id) === last)!;
        violations.push(
          `invariant ${String(invariant.id)}: ${trigger} completed at #${last} but the run completed without ${eventually.join(' or ')} completing after it`,
        );
      }
    }
  }
  return violations;
}
