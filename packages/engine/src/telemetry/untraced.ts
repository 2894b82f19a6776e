import { context as contextApi, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The key the OpenTelemetry SDK's `suppressTracing` sets (`@opentelemetry/core`): context
 * keys are `Symbol.for` their description, so this is the same key without depending on
 * the SDK. Tracers of the SDK start no span under it.
 */
const SUPPRESS_TRACING = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/**
 * Runs `work` in a root context with tracing suppressed: what a metric callback reads
 * (backlogs from the store) makes no spans, so collecting metrics never adds traces.
 */
export function untraced<T>(work: () => Promise<T>): Promise<T> {
  return contextApi.with(ROOT_CONTEXT.setValue(SUPPRESS_TRACING, true), work);
}
