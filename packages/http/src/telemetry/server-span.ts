import {
  context as contextApi,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type SpanContext,
} from '@opentelemetry/api';
import {
  ATTRIBUTES,
  createTelemetry,
  parseTraceparent,
  withCallerTrace,
  type TelemetryOptions,
} from '@programrun/engine';
import { failureOf } from '../logging/failures.js';
import { requestMethodOf } from './request-method.js';

/** What the handler knows of a request before answering it. */
export interface ServedRequest {
  readonly request: Request;
  readonly url: URL;
  readonly requestId: string;
  /** The matched route's template (`/v1/program-runs/{id}`); null when none matched. */
  readonly route: string | null;
}

/** An answer and the trace id of the server span it was given in (null when none). */
export interface ServedAnswer {
  readonly response: Response;
  readonly traceId: string | null;
}

/** The handler's telemetry: one SERVER span and one duration measurement per request. */
export interface HttpTelemetry {
  serve(served: ServedRequest, answer: () => Promise<Response>): Promise<ServedAnswer>;
}

/** Seconds buckets the HTTP semantic conventions advise for request durations. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Where the server span goes: under a span the host already made active (its own HTTP
 * instrumentation), else under the caller's `traceparent`, else a new trace. A request
 * that brought a `traceparent` runs as the caller's trace (`withCallerTrace`), so the
 * engine keeps the spans it touches in that trace.
 */
function parentOf(request: Request): Context {
  const active = contextApi.active();
  const incoming = parseTraceparent(
    request.headers.get('traceparent'),
    request.headers.get('tracestate'),
  );
  if (!incoming) return active;
  const parent = trace.getSpanContext(active) ? active : trace.setSpanContext(active, incoming);
  return withCallerTrace(parent);
}

const traceIdOf = (spanContext: SpanContext): string | null =>
  isSpanContextValid(spanContext) ? spanContext.traceId : null;

/**
 * Builds the handler's telemetry (OpenTelemetry HTTP semantic conventions): a SERVER span
 * `{METHOD} {route}` per request with `http.request.method`, `http.route`, `url.path`,
 * `url.scheme`, `user_agent.original`, `programrun.request_id`,
 * `http.response.status_code` and, on a 5xx, `error.type` and an error status; and the
 * `http.server.request.duration` histogram (seconds). Never the query string or headers
 * that carry credentials.
 */
export function createHttpTelemetry(options: TelemetryOptions | undefined): HttpTelemetry {
  const telemetry = createTelemetry(options, '@programrun/http');
  if (!telemetry.enabled) {
    return { serve: async (_served, answer) => ({ response: await answer(), traceId: null }) };
  }
  const duration: Histogram = telemetry.meter.createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests',
    unit: 's',
    advice: { explicitBucketBoundaries: SECONDS },
  });
  return {
    serve({ request, url, requestId, route }, answer) {
      const startedAt = performance.now();
      const method = requestMethodOf(request.method);
      const scheme = url.protocol.replace(/:$/, '');
      const name = method === '_OTHER' ? 'HTTP' : method;
      const attributes: Attributes = {
        'http.request.method': method,
        'url.path': url.pathname,
        'url.scheme': scheme,
        [ATTRIBUTES.requestId]: requestId,
      };
      if (method === '_OTHER') attributes['http.request.method_original'] = request.method;
      if (route !== null) attributes['http.route'] = route;
      const userAgent = request.headers.get('user-agent');
      if (userAgent !== null) attributes['user_agent.original'] = userAgent;
      return telemetry.inSpan(
        route === null ? name : `${name} ${route}`,
        { kind: SpanKind.SERVER, attributes, parent: parentOf(request) },
        async (span) => {
          const response = await answer();
          const status = response.status;
          const failed = status >= 500;
          if (span.isRecording()) {
            span.setAttribute('http.response.status_code', status);
            if (failed) {
              span.setAttribute('error.type', String(status));
              const code = failureOf(response)?.code;
              span.setStatus({
                code: SpanStatusCode.ERROR,
                ...(code === undefined ? {} : { message: code }),
              });
            }
          }
          duration.record((performance.now() - startedAt) / 1000, {
            'http.request.method': method,
            'url.scheme': scheme,
            'http.response.status_code': status,
            ...(route === null ? {} : { 'http.route': route }),
            ...(failed ? { 'error.type': String(status) } : {}),
          });
          return { response, traceId: traceIdOf(span.spanContext()) };
        },
      );
    },
  };
}
