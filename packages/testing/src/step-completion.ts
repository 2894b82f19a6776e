import type { LifecycleRecord } from '@programrun/engine';

/** The record type that starts a step, by the record type, with the step kind it starts. */
const STARTS: Readonly<Record<string, string>> = {
  'program_run.handoff.requested': 'handoff',
  'program_run.approval.requested': 'approval',
  'program_run.wait.started': 'wait',
  'program_run.policy.evaluated': 'check',
  'program_run.record.created': 'record',
  'program_run.delivery.recorded': 'record',
  'program_run.route.selected': 'route',
};

/**
 * True when a record shows a step of kind `kind` starting: its first record
 * (`handoff.requested`, `approval.requested`, `wait.started`, `policy.evaluated`, a
 * record, or `route.selected`).
 *
 * @example
 * ```ts
 * startsStep(record, 'handoff'); // true for a `program_run.handoff.requested` record
 * ```
 */
export function startsStep(record: LifecycleRecord, kind: string | undefined): boolean {
  return kind !== undefined && STARTS[record.type] === kind;
}

/**
 * True when a record shows its step completing successfully: a confirmed handoff, a
 * granted approval (or a granted review of a check), a completed wait, an `allow`
 * policy evaluation, a record, or a route that selected an alternative.
 *
 * @example
 * ```ts
 * completesStep(record, 'handoff'); // true for a `program_run.handoff.confirmed` record
 * ```
 */
export function completesStep(record: LifecycleRecord, kind: string | undefined): boolean {
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
