import type { CompiledScenario } from '@programrun/dsl';
import type { LifecycleRecord, RunStatus } from '@programrun/engine';
import { completesStep, startsStep } from './step-completion.js';

type RawInvariant = Readonly<Record<string, unknown>>;

/** The records that carry a step's decisions so far. */
const APPROVALS = new Set(['program_run.approval.recorded', 'program_run.approval.granted']);

/** The people who approved in a decision record (its `decisions`). */
function approvers(record: LifecycleRecord): string[] {
  const decisions = (record.data as { decisions?: unknown }).decisions;
  if (!Array.isArray(decisions)) return [];
  return decisions.flatMap((item: unknown) => {
    const { approver, decision } = (item ?? {}) as { approver?: unknown; decision?: unknown };
    return decision === 'approve' && typeof approver === 'string' ? [approver] : [];
  });
}

/** How a grant of an approval step falls short of the approval invariants naming it. */
function approvalShortfalls(
  invariants: readonly RawInvariant[],
  record: LifecycleRecord,
  approvedBy: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const step = record.step!;
  const granted = new Set(approvers(record));
  const earlier = new Set(
    [...approvedBy].flatMap(([other, people]) => (other === step ? [] : [...people])),
  );
  return invariants.flatMap((invariant) => {
    const needed = invariant.by_at_least;
    if (typeof needed !== 'number' || !steps(invariant, 'approved')?.includes(step)) return [];
    const found: string[] = [];
    if (granted.size < needed)
      found.push(
        `invariant ${String(invariant.id)}: ${step} granted at #${record.sequence} by ${granted.size} approver(s), fewer than ${needed}`,
      );
    const makers = [...granted].filter((person) => earlier.has(person));
    if (invariant.maker_checker === true && makers.length > 0)
      found.push(
        `invariant ${String(invariant.id)}: ${step} granted at #${record.sequence} with ${makers.join(', ')}, who approved an earlier step`,
      );
    return found;
  });
}

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
 *   cancelled are not bound);
 * - approval (`approved` + `by_at_least`): each grant of an `approved` step counts at
 *   least that many different approvers, none of whom (with `maker_checker`) approved
 *   another step before.
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
  /** Who approved each step so far. */
  const approvedBy = new Map<string, Set<string>>();
  for (const record of records) {
    if (record.type === 'program_run.approval.granted' && record.step !== null)
      violations.push(...approvalShortfalls(invariants, record, approvedBy));
    if (APPROVALS.has(record.type) && record.step !== null)
      approvedBy.set(record.step, new Set([...approvers(record)]));
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
