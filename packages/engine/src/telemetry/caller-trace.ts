import { createContextKey, type Context } from '@opentelemetry/api';

const CALLER_TRACE = createContextKey('programrun.caller_trace');

/**
 * Marks a context as the caller's own trace: the HTTP handler sets it when a request
 * brought a `traceparent`, and the engine then puts the spans of the run it touches in the
 * caller's trace (linked to the run's), instead of in the run's trace (linked to the
 * request's).
 *
 * @example
 * ```ts
 * import { context } from '@opentelemetry/api';
 * await context.with(withCallerTrace(context.active()), () => engine.signal(scope, id, signal));
 * ```
 */
export function withCallerTrace(context: Context): Context {
  return context.setValue(CALLER_TRACE, true);
}

/** Whether {@link withCallerTrace} marked this context. */
export function isCallerTrace(context: Context): boolean {
  return context.getValue(CALLER_TRACE) === true;
}
