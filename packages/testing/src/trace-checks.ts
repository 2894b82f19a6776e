import type { CompiledScenario } from '@programrun/dsl';
import { verifyChain } from '@programrun/evidence';
import type { LifecycleRecord } from '@programrun/engine';
import type { Trace } from './run-trace.js';

const STARTS: Readonly<Record<string, string>> = {
  'program_run.handoff.requested': 'handoff',
  'program_run.approval.requested': 'approval',
  'program_run.wait.started': 'wait',
  'program_run.policy.evaluated': 'check',
  'program_run.record.created': 'record',
  'program_run.delivery.recorded': 'record',
  'program_run.route.selected': 'route',
};

/** True when a record shows its step completing successfully. */
function completes(record: LifecycleRecord, kind: string | undefined): boolean {
  switch (record.type) {
    case 'program_run.handoff.confirmed':
    case 'program_run.wait.completed':
    case 'program_run.record.created':
    case 'program_run.delivery.recorded':
      return true;
    case 'program_run.approval.granted':
      return kind === 'approval' || kind === 'check';
    case 'program_run.policy.evaluated':
      return record.data.decision === 'allow';
    case 'program_run.route.selected':
      return record.data.selected !== null;
    default:
      return false;
  }
}

/**
 * Every way a trace breaks the scenario's promises: its hash chain, its declared
 * invariants (a `then` step started before every `before` step completed), a wait
 * without a deadline, a run that never ends, or a finished run whose history is not
 * sealed exactly once at its end. Empty when the trace is sound.
 *
 * @example
 * ```ts
 * expect(traceViolations(compiled, trace)).toEqual([]);
 * ```
 */
export function traceViolations(compiled: CompiledScenario, trace: Trace): string[] {
  const violations: string[] = [];
  const chain = verifyChain(trace.records, { expectedHead: trace.run.evidence.chain_head });
  if (!chain.ok) violations.push(`hash chain: ${chain.message} at index ${chain.index}`);
  if (!trace.terminated)
    violations.push(
      `never terminated: still ${trace.run.status} at ${trace.run.awaiting?.step ?? '-'}`,
    );
  const sealed = trace.records.filter((record) => record.type === 'program_run.evidence.sealed');
  if (
    trace.terminated &&
    (sealed.length !== 1 || trace.records.at(-1)?.type !== 'program_run.evidence.sealed')
  ) {
    violations.push(
      `a finished run must end in exactly one evidence.sealed record (found ${sealed.length})`,
    );
  }
  if (trace.run.status === 'waiting' && trace.run.awaiting?.deadline === null) {
    violations.push(`waits for ${trace.run.awaiting.step} without a deadline`);
  }

  const completed = new Set<string>();
  for (const record of trace.records) {
    const step = record.step === null ? undefined : compiled.graph.steps.get(record.step);
    if (!step || step.stage === null) continue;
    if (STARTS[record.type] === step.kind) {
      for (const invariant of compiled.definition.invariants) {
        if (!invariant.then.includes(step.id)) continue;
        const missing = invariant.before.filter((before) => !completed.has(before));
        if (missing.length > 0) {
          violations.push(
            `invariant ${invariant.id}: ${step.id} started at #${record.sequence} before ${missing.join(', ')} completed`,
          );
        }
      }
    }
    if (completes(record, step.kind)) completed.add(step.id);
  }
  return violations;
}
