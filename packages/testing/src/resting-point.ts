// Where a search trace's plan left the run: the point the directed search extends from.
import type { CompiledScenario } from '@programrun/dsl';
import type { AwaitingRecord } from '@programrun/engine';
import type { Trace } from './run-trace.js';
import type { TimelineRecord } from './timeline.js';

/** What a trace's plan left the run waiting on when the drain began; null when it was not waiting. */
export function restingWait(trace: Trace): AwaitingRecord | null {
  return trace.timeline.find((entry) => entry.phase === 'drain')?.waited ?? null;
}

/**
 * The compensations a run has registered and not discharged when its plan ended: the
 * steps naming one in `compensate` that completed, since the last pivot that completed.
 */
function registered(compiled: CompiledScenario, planned: readonly TimelineRecord[]): string {
  const held: string[] = [];
  for (const record of planned) {
    if (
      record.type !== 'program_run.handoff.confirmed' &&
      record.type !== 'program_run.approval.granted'
    )
      continue;
    const definition = compiled.graph.steps.get(record.step ?? '')?.definition as
      { compensate?: string; pivot?: boolean } | undefined;
    if (definition?.pivot === true) held.length = 0;
    if (definition?.compensate !== undefined) held.push(definition.compensate);
  }
  return held.join(',');
}

/**
 * Where a trace's plan left the run: what it waited on when the drain began, or how it
 * ended. An approval counts the approvals it collected and a handoff its attempt, so a
 * quorum of two and a retry are points of their own; and the compensations registered
 * are part of the point, since a failure further on runs them.
 */
export function restingPoint(compiled: CompiledScenario, trace: Trace): string {
  const waited = restingWait(trace);
  // The records the plan's actions appended (not the drain's).
  const planned = trace.timeline
    .filter((entry) => entry.phase !== 'drain')
    .flatMap((entry) => entry.records);
  const compensations = registered(compiled, planned);
  if (waited === null) {
    const ended = trace.timeline.some((entry) => entry.phase === 'drain');
    return `${ended ? 'running' : trace.run.status} ${compensations}`;
  }
  if (waited.kind === 'approval')
    return `approval ${waited.step} ${waited.approvals ?? 0} ${compensations}`;
  const attempt = planned.filter(
    (record) => record.step === waited.step && record.type === 'program_run.handoff.requested',
  ).length;
  return `${waited.kind} ${waited.step} ${attempt} ${compensations}`;
}
