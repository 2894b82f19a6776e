import { SpanKind } from '@opentelemetry/api';
import type { EngineContext } from '../engine-context.js';
import { CREATE_SPAN, describeRun, scopeAttributes } from '../kernel/run-span.js';
import type { Scope } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import { formatTraceparent } from '../telemetry/trace-context.js';
import type { CreateRunResult, PreparedCreation } from './create-run.js';

/**
 * Runs a creation in a `programrun.run.create` span, a child of the active span (the
 * request's): the run keeps that span's context as its `trace_context`, so every later span
 * of the run joins this trace. `work` gets the trace context to keep; null when telemetry
 * is off or no tracer gives the span a valid context.
 */
export function inCreateSpan(
  context: EngineContext,
  scope: Scope,
  prepared: PreparedCreation,
  work: (traceContext: string | null) => Promise<CreateRunResult>,
): Promise<CreateRunResult> {
  const { telemetry } = context;
  if (!telemetry.enabled) return work(null);
  return telemetry.inSpan(CREATE_SPAN, { kind: SpanKind.INTERNAL }, async (span) => {
    if (span.isRecording()) span.setAttributes(scopeAttributes(scope, prepared.compiled.id));
    const result = await work(formatTraceparent(span.spanContext()));
    describeRun(span, result.run);
    if (span.isRecording())
      span.setAttribute(ATTRIBUTES.outcome, result.created ? 'created' : 'existing');
    return result;
  });
}
