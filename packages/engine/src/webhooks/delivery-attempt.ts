import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { EngineContext } from '../engine-context.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import type { AttemptOutcome, DeliverySettled, PreparedDelivery } from './delivery-queue.js';

/** The span of one webhook delivery attempt. */
export const DELIVER_SPAN = 'programrun.webhook.deliver';

/** The receiver's host, or null for a URL that does not parse (the attempt fails anyway). */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** Names the delivery on its attempt's span (only when the span records). */
function describeAttempt(span: Span, prepared: PreparedDelivery): void {
  if (!span.isRecording()) return;
  const { delivery } = prepared;
  const host = hostOf(prepared.url);
  span.setAttributes({
    'http.request.method': 'POST',
    ...(host === null ? {} : { 'server.address': host }),
    [ATTRIBUTES.endpointId]: delivery.endpoint_id,
    [ATTRIBUTES.eventType]: prepared.eventType,
    [ATTRIBUTES.deliveryAttempt]: delivery.attempts + 1,
    [ATTRIBUTES.account]: delivery.account,
    [ATTRIBUTES.environment]: delivery.environment,
    ...(prepared.runId === null ? {} : { [ATTRIBUTES.runId]: prepared.runId }),
  });
}

/** Sets how the attempt went on its span: the status, and an error unless it delivered. */
function reportAttempt(span: Span, outcome: AttemptOutcome, settled: DeliverySettled): void {
  if (!span.isRecording()) return;
  if (outcome.status !== null) span.setAttribute('http.response.status_code', outcome.status);
  span.setAttribute(ATTRIBUTES.outcome, settled);
  const { error, status } = outcome;
  if (error === null && status !== null && status >= 200 && status < 300) return;
  const errorType = error?.code ?? String(status ?? 'error');
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
}

/**
 * One attempt of a prepared delivery, in a `programrun.webhook.deliver` CLIENT span in the
 * run's trace of its event: `send` makes the request while the span is active (so the
 * request carries the span's `traceparent`), then `settle` records it. Counts the attempt
 * and its duration by environment and outcome.
 */
export function attemptDelivery(
  context: EngineContext,
  prepared: PreparedDelivery,
  send: () => Promise<AttemptOutcome>,
  settle: (outcome: AttemptOutcome) => Promise<DeliverySettled>,
): Promise<DeliverySettled> {
  const { telemetry, metrics } = context;
  const { parent, links } = telemetry.runParent(prepared.traceContext);
  const start = { kind: SpanKind.CLIENT, parent, links };
  return telemetry.inSpan(DELIVER_SPAN, start, async (span) => {
    describeAttempt(span, prepared);
    const started = performance.now();
    const outcome = await send();
    const seconds = (performance.now() - started) / 1000;
    const settled = await settle(outcome);
    reportAttempt(span, outcome, settled);
    const attributes = {
      [ATTRIBUTES.environment]: prepared.delivery.environment,
      [ATTRIBUTES.outcome]: settled,
    };
    metrics.deliveryAttempts.add(1, attributes);
    metrics.deliveryDuration.record(seconds, attributes);
    return settled;
  });
}
