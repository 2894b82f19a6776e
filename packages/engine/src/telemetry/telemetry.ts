import {
  context as contextApi,
  createNoopMeter,
  metrics,
  SpanStatusCode,
  trace,
  INVALID_SPAN_CONTEXT,
  type Attributes,
  type Context,
  type Link,
  type Meter,
  type Span,
  type SpanKind,
  type Tracer,
} from '@opentelemetry/api';
import { isCallerTrace } from './caller-trace.js';
import { formatTraceparent, parseTraceparent } from './trace-context.js';
import type { TelemetryOptions } from './telemetry-options.js';

/** A span that records nothing: what work runs in when telemetry is off. */
const NOT_RECORDING: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** How a span starts: its kind, attributes, links and (optionally) an explicit parent. */
export interface SpanStart {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
  readonly links?: readonly Link[];
  /** @default the active context */
  readonly parent?: Context;
}

/**
 * What the engine's modules use to trace and measure: one per engine (and one per HTTP
 * handler), built from {@link TelemetryOptions}. With telemetry off, `inSpan` only calls
 * the work and the meter is a no-op.
 */
export interface Telemetry {
  readonly enabled: boolean;
  readonly tracer: Tracer;
  readonly meter: Meter;
  /**
   * Runs `work` in a new active span and ends it: an exception is recorded on the span
   * (status error) and rethrown.
   */
  inSpan<T>(name: string, start: SpanStart, work: (span: Span) => Promise<T>): Promise<T>;
  /**
   * Where a span of a run goes: in the caller's trace when the active context is one the
   * caller brought (`withCallerTrace`), linked to the run's trace; otherwise in the run's
   * own trace (its stored `traceparent`), linked to the active span when there is one.
   * Without a stored trace context the active context is the parent.
   */
  runParent(runTraceContext: string | null | undefined): {
    readonly parent: Context;
    readonly links: readonly Link[];
  };
  /** The active span's context as a `traceparent`, to store or send; null when none. */
  activeTraceparent(): string | null;
}

/**
 * Builds the telemetry of one engine or handler.
 *
 * @example
 * ```ts
 * const telemetry = createTelemetry(undefined, '@programrun/engine');
 * await telemetry.inSpan('programrun.run.create', {}, async (span) => span.isRecording());
 * ```
 */
export function createTelemetry(
  options: TelemetryOptions | undefined,
  instrumentation: string,
): Telemetry {
  if (options === false) return disabledTelemetry(instrumentation);
  const tracer = (options?.tracerProvider ?? trace.getTracerProvider()).getTracer(instrumentation);
  const meter = (options?.meterProvider ?? metrics.getMeterProvider()).getMeter(instrumentation);
  return {
    enabled: true,
    tracer,
    meter,
    inSpan(name, start, work) {
      const parent = start.parent ?? contextApi.active();
      const span = tracer.startSpan(
        name,
        {
          ...(start.kind === undefined ? {} : { kind: start.kind }),
          ...(start.attributes ? { attributes: start.attributes } : {}),
          ...(start.links && start.links.length > 0 ? { links: [...start.links] } : {}),
        },
        parent,
      );
      return contextApi.with(trace.setSpan(parent, span), async () => {
        try {
          return await work(span);
        } catch (error) {
          if (span.isRecording()) {
            span.recordException(error instanceof Error ? error : String(error));
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: error instanceof Error ? error.message : String(error),
            });
          }
          throw error;
        } finally {
          span.end();
        }
      });
    },
    runParent(runTraceContext) {
      const active = contextApi.active();
      const run = parseTraceparent(runTraceContext);
      if (!run) return { parent: active, links: [] };
      const current = trace.getSpanContext(active);
      const differs = current !== undefined && current.traceId !== run.traceId;
      if (current && isCallerTrace(active))
        return { parent: active, links: differs ? [{ context: run }] : [] };
      return {
        parent: trace.setSpanContext(active, run),
        links: current && differs ? [{ context: current }] : [],
      };
    },
    activeTraceparent: () => formatTraceparent(trace.getSpanContext(contextApi.active())),
  };
}

function disabledTelemetry(instrumentation: string): Telemetry {
  return {
    enabled: false,
    tracer: trace.getTracerProvider().getTracer(instrumentation),
    meter: createNoopMeter(),
    inSpan: (_name, _start, work) => work(NOT_RECORDING),
    runParent: () => ({ parent: contextApi.active(), links: [] }),
    activeTraceparent: () => null,
  };
}
