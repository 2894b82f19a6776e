import type { CompiledScenario } from '@programrun/dsl';
import type { EngineErrorCode } from '../errors.js';
import { FINAL_STATUSES, type RunRecord } from '../runs/run-record.js';
import type { StoredRun } from '../store/store-v1.js';
import type { Signal } from './signal.js';

/** Why a signal changed nothing: a duplicate to acknowledge, or a refusal to report. */
export type SignalVerdict =
  | { readonly duplicate: true }
  | { readonly duplicate: false; readonly code: EngineErrorCode; readonly message: string };

const refuse = (code: EngineErrorCode, message: string): SignalVerdict => ({
  duplicate: false,
  code,
  message,
});

function describeAwaiting(record: RunRecord): string {
  const awaiting = record.awaiting;
  return awaiting
    ? `the run is waiting for ${awaiting.kind} "${awaiting.step}"`
    : 'the run is not waiting for anything';
}

/**
 * Explains a signal the machine did not accept. Repeats of what is already recorded
 * (the same partner answer, the same approver's same decision) are duplicates that
 * callers acknowledge without change; anything else is refused with a stable code.
 */
export function explainRefusal(
  compiled: CompiledScenario,
  run: StoredRun,
  signal: Signal,
): SignalVerdict {
  const record = run.record;
  const context = run.snapshot?.context;
  if (signal.kind === 'handoff' && context) {
    const known = context.handoffs[signal.step];
    if (known && known.outcome === signal.outcome && known.reference === signal.reference)
      return { duplicate: true };
  }
  if (signal.kind === 'approval' && context) {
    const decided = (context.approvals[signal.step] ?? []).find(
      (item) => item.approver === signal.approver,
    );
    if (decided?.decision === signal.decision) return { duplicate: true };
  }
  if (FINAL_STATUSES.has(record.status)) {
    return refuse('run_finished', `The run is ${record.status}; it accepts no more signals.`);
  }
  const awaiting = record.awaiting;
  switch (signal.kind) {
    case 'cancel':
      return awaiting?.kind === 'handoff'
        ? refuse(
            'cancel_not_allowed',
            `Step "${awaiting.step}" is with ${awaiting.party ?? 'a partner'}; cancel once the partner answers so nothing is left half-done.`,
          )
        : refuse('signal_refused', `The run cannot be cancelled now: ${describeAwaiting(record)}.`);
    case 'handoff':
      if (awaiting?.kind !== 'handoff' || awaiting.step !== signal.step) {
        return refuse(
          'step_not_awaiting',
          `No handoff "${signal.step}" is pending: ${describeAwaiting(record)}.`,
        );
      }
      return refuse('signal_refused', `The partner answer for "${signal.step}" was not accepted.`);
    case 'approval': {
      if (awaiting?.kind !== 'approval' || awaiting.step !== signal.step) {
        return refuse(
          'step_not_awaiting',
          `No approval "${signal.step}" is pending: ${describeAwaiting(record)}.`,
        );
      }
      if (
        (context?.approvals[signal.step] ?? []).some((item) => item.approver === signal.approver)
      ) {
        return refuse(
          'approver_already_decided',
          `${signal.approver} already decided "${signal.step}".`,
        );
      }
      const step = compiled.graph.steps.get(signal.step)?.definition;
      if (step?.kind === 'approval' && step.maker_checker) {
        return refuse(
          'maker_checker_violation',
          `"${signal.step}" needs approvers other than those who approved earlier steps (four eyes); ${signal.approver} approved one.`,
        );
      }
      return refuse('signal_refused', `The decision on "${signal.step}" was not accepted.`);
    }
  }
}
