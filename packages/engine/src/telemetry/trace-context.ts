import {
  createTraceState,
  isSpanContextValid,
  TraceFlags,
  type SpanContext,
} from '@opentelemetry/api';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/**
 * A span context as a W3C `traceparent` header value (`00-<trace id>-<span id>-<flags>`):
 * what a run keeps of the request that created it, and what outgoing webhook deliveries
 * and connector calls send so that the receiver's trace joins. Null for an invalid context
 * (no tracer registered, or telemetry off).
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * const header = formatTraceparent(trace.getActiveSpan()?.spanContext());
 * if (header) headers.set('traceparent', header);
 * ```
 */
export function formatTraceparent(spanContext: SpanContext | undefined): string | null {
  if (!spanContext || !isSpanContextValid(spanContext)) return null;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/**
 * Reads a W3C `traceparent` header value into a remote span context; undefined when it is
 * absent or malformed (a malformed header is ignored, as the W3C recommendation says,
 * never an error). Version `ff` and all-zero ids are invalid; later versions are read as
 * version 00 when their first fields have its shape.
 *
 * @example
 * ```ts
 * const parent = parseTraceparent(request.headers.get('traceparent'));
 * parent?.traceId; // '4bf92f3577b34da6a3ce929d0e0e4736'
 * ```
 */
export function parseTraceparent(
  header: string | null | undefined,
  tracestate?: string | null,
): SpanContext | undefined {
  if (!header) return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (version === 'ff' || (version === '00' && header.trim().length !== 55)) return undefined;
  const spanContext: SpanContext = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  if (!isSpanContextValid(spanContext)) return undefined;
  return tracestate
    ? { ...spanContext, traceState: createTraceState(tracestate.trim()) }
    : spanContext;
}
