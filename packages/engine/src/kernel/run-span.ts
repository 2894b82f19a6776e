import {
  INVALID_SPAN_CONTEXT,
  SpanKind,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { EngineContext } from '../engine-context.js';
import type { RunRecord } from '../runs/run-record.js';
import type { Scope, StoredRun } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';

/** The span of a run being created. */
export const CREATE_SPAN = 'programrun.run.create';
/** The span of a signal applied to a run. */
export const SIGNAL_SPAN = 'programrun.run.signal';
/** The span of a timer firing for a run. */
export const TIMER_SPAN = 'programrun.timer.fire';

/** What work runs in when telemetry is off: a span that records nothing. */
export const NOT_RECORDING: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** The version of a scenario id (`wallet-delivery@v1` → `v1`). */
const versionOf = (scenarioId: string): string => scenarioId.slice(scenarioId.indexOf('@') + 1);

/** What names a run's scenario and scope on a span. */
export function scopeAttributes(scope: Scope, scenarioId: string): Attributes {
  return {
    [ATTRIBUTES.scenarioId]: scenarioId,
    [ATTRIBUTES.scenarioVersion]: versionOf(scenarioId),
    [ATTRIBUTES.account]: scope.account,
    [ATTRIBUTES.environment]: scope.environment,
  };
}

/** Names the run on its span as the work left it: id, status and stage. */
export function describeRun(span: Span, run: Pick<RunRecord, 'id' | 'status' | 'stage'>): void {
  if (!span.isRecording()) return;
  span.setAttribute(ATTRIBUTES.runId, run.id);
  span.setAttribute(ATTRIBUTES.runStatus, run.status);
  if (run.stage !== null) span.setAttribute(ATTRIBUTES.stage, run.stage);
}

/**
 * Runs `work` in a span of an existing run: in the run's trace (its stored trace context),
 * or in the caller's own trace linked to the run's (see `Telemetry.runParent`). When the
 * span records, it names the run, its scenario and scope, and what `describe` says the
 * work is about; `work` names the run as it left it ({@link describeRun}).
 */
export function inRunSpan<T>(
  context: EngineContext,
  name: string,
  run: StoredRun,
  describe: () => Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const { telemetry } = context;
  if (!telemetry.enabled) return work(NOT_RECORDING);
  const { parent, links } = telemetry.runParent(run.trace_context);
  return telemetry.inSpan(name, { kind: SpanKind.INTERNAL, parent, links }, (span) => {
    if (span.isRecording()) {
      span.setAttributes(scopeAttributes(run, run.scenario_id));
      span.setAttributes(describe());
      describeRun(span, run.record);
    }
    return work(span);
  });
}
