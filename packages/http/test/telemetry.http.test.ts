// The handler's OpenTelemetry: one SERVER span per request (HTTP semantic conventions) that
// engine spans nest under, an incoming traceparent honoured, the request duration
// histogram, and trace ids in the logs.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type StoreV1 } from '@programrun/engine';
import type { AccessLogEntry, ErrorLogEntry, HandlerOptions } from '../src/index.js';
import { createTestHandler, TEST_KEY } from './harness.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;
const WALLET_INPUTS = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};

const contextManager = new AsyncLocalStorageContextManager();
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
/** A meter provider of its own, read on demand. */
function meters() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  return { exporter, reader, meterProvider: new MeterProvider({ readers: [reader] }) };
}
const { meterProvider } = meters();
const telemetry = { tracerProvider, meterProvider };

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});
beforeEach(() => {
  exporter.reset();
});

/** A memory store whose run list fails like a broken disk. */
function brokenStore(): StoreV1 {
  const inner = createMemoryStore();
  return {
    ...inner,
    transaction: (work) =>
      inner.transaction((tx) =>
        work({ ...tx, listRuns: () => Promise.reject(new Error('disk on fire')) }),
      ),
  };
}

async function traced(handlerOptions: Partial<HandlerOptions> = {}, store?: StoreV1) {
  const { handler, engine } = await createTestHandler(
    { telemetry, onError: false, ...handlerOptions },
    { telemetry: { tracerProvider }, ...(store ? { store } : {}) },
  );
  const send = (
    method: string,
    path: string,
    options: { key?: string | null; headers?: Record<string, string>; body?: unknown } = {},
  ) => {
    const key = options.key === undefined ? TEST_KEY : options.key;
    return handler.handle(
      new Request(`http://programrun.test${path}`, {
        method,
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      }),
    );
  };
  return { handler, engine, send };
}

const serverSpans = (): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => SpanKind[span.kind] === 'SERVER');

/** A finished span's parents, nearest first, as far as they were recorded here. */
function ancestorsOf(span: ReadableSpan): ReadableSpan[] {
  const byId = new Map(
    exporter.getFinishedSpans().map((each) => [each.spanContext().spanId, each]),
  );
  const ancestors: ReadableSpan[] = [];
  for (
    let parent = byId.get(span.parentSpanContext?.spanId ?? '');
    parent;
    parent = byId.get(parent.parentSpanContext?.spanId ?? '')
  )
    ancestors.push(parent);
  return ancestors;
}

function onlyServerSpan(): ReadableSpan {
  const spans = serverSpans();
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

describe('the server span', () => {
  it('is one SERVER span per request, named by method and route template, with the conventions’ attributes', async () => {
    const { send } = await traced();
    const response = await send('GET', '/v1/scenarios/wallet-delivery@v1?secret=s3cr3t', {
      headers: { 'user-agent': 'probe/1.0' },
    });
    expect(response.status).toBe(200);
    const span = onlyServerSpan();
    expect(span.name).toBe('GET /v1/scenarios/{id}');
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/v1/scenarios/{id}',
      'url.path': '/v1/scenarios/wallet-delivery@v1',
      'url.scheme': 'http',
      'user_agent.original': 'probe/1.0',
      'programrun.request_id': response.headers.get('request-id'),
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // A new trace: no parent, and the traceparent is never echoed.
    expect(span.parentSpanContext).toBeUndefined();
    expect(response.headers.get('traceparent')).toBeNull();
    // Neither the query string nor the credentials.
    const text = JSON.stringify(span.attributes);
    expect(text).not.toContain('s3cr3t');
    expect(text).not.toContain(TEST_KEY);
  });

  it('traces refused requests too: 404, 405, 401 and methods the conventions do not know', async () => {
    const { send } = await traced();
    const answers = [
      await send('GET', '/v1/nowhere'),
      await send('DELETE', '/v1/scenarios'),
      await send('GET', '/v1/scenarios', { key: null }),
      await send('FOO', '/v1/scenarios'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 405, 401, 405]);
    const spans = serverSpans();
    expect(
      spans.map((span) => [
        span.name,
        span.attributes['http.route'],
        span.attributes['http.request.method'],
        span.attributes['http.response.status_code'],
        span.status.code,
      ]),
    ).toEqual([
      ['GET', undefined, 'GET', 404, SpanStatusCode.UNSET],
      ['DELETE', undefined, 'DELETE', 405, SpanStatusCode.UNSET],
      ['GET /v1/scenarios', '/v1/scenarios', 'GET', 401, SpanStatusCode.UNSET],
      ['HTTP', undefined, '_OTHER', 405, SpanStatusCode.UNSET],
    ]);
    expect(spans[3]!.attributes['http.request.method_original']).toBe('FOO');
  });

  it('continues the caller’s trace from traceparent and tracestate; engine spans nest under it', async () => {
    let activeInHook: string | undefined;
    const { handler } = await traced({
      authenticate: () => {
        activeInHook = trace.getActiveSpan()?.spanContext().spanId;
        return { account: 'acct_one', environment: 'test', credentialId: 'cred_t' };
      },
    });
    const response = await handler.handle(
      new Request('http://programrun.test/v1/program-runs', {
        method: 'POST',
        headers: {
          traceparent: TRACEPARENT,
          tracestate: 'vendor=value',
          'content-type': 'application/json',
          'idempotency-key': 'trace-1',
        },
        body: JSON.stringify({ scenario_id: 'wallet-delivery@v1', inputs: WALLET_INPUTS }),
      }),
    );
    expect(response.status).toBe(201);
    const server = onlyServerSpan();
    expect(server.name).toBe('POST /v1/program-runs');
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(server.spanContext().traceState?.get('vendor')).toBe('value');
    // The route ran with the server span active: the host's hook and the engine see it.
    expect(activeInHook).toBe(server.spanContext().spanId);
    const create = exporter
      .getFinishedSpans()
      .find((span) => span.name === 'programrun.run.create');
    expect(create, 'the engine’s create span').toBeDefined();
    expect(create!.spanContext().traceId).toBe(TRACE_ID);
    // Under the server span (through the unit of work's store transaction), whose parent
    // is the caller's.
    expect(ancestorsOf(create!).at(-1)?.spanContext().spanId).toBe(server.spanContext().spanId);
  });

  it('starts a new trace when traceparent is malformed', async () => {
    const { send } = await traced();
    for (const header of [
      'not-a-traceparent',
      `ff-${TRACE_ID}-${PARENT_SPAN_ID}-01`,
      `00-${'0'.repeat(32)}-${PARENT_SPAN_ID}-01`,
    ]) {
      exporter.reset();
      expect(
        (await send('GET', '/v1/scenarios', { headers: { traceparent: header } })).status,
      ).toBe(200);
      const span = onlyServerSpan();
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.spanContext().traceId).not.toBe(TRACE_ID);
    }
  });

  it('nests under a span the host made active (its own HTTP instrumentation)', async () => {
    const { send } = await traced();
    const host = tracerProvider.getTracer('host').startSpan('host request');
    await context.with(trace.setSpan(context.active(), host), () =>
      send('GET', '/v1/scenarios', { headers: { traceparent: TRACEPARENT } }),
    );
    host.end();
    const server = onlyServerSpan();
    expect(server.parentSpanContext?.spanId).toBe(host.spanContext().spanId);
    expect(server.spanContext().traceId).toBe(host.spanContext().traceId);
  });

  it('marks a 5xx as an error, and logs it once with its route and trace id', async () => {
    const errors: ErrorLogEntry[] = [];
    const access: AccessLogEntry[] = [];
    const { send } = await traced(
      { onError: (entry) => errors.push(entry), onAccess: (entry) => access.push(entry) },
      brokenStore(),
    );
    const response = await send('GET', '/v1/program-runs');
    expect(response.status).toBe(500);
    const span = onlyServerSpan();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'internal_error' });
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 500,
      'error.type': '500',
      'http.route': '/v1/program-runs',
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      request_id: response.headers.get('request-id'),
      route: '/v1/program-runs',
      trace_id: span.spanContext().traceId,
      status: 500,
      code: 'internal_error',
      error: { message: 'disk on fire' },
    });
    expect(access).toEqual([
      expect.objectContaining({
        route: '/v1/program-runs',
        status: 500,
        account: 'acct_one',
        credential_id: expect.stringMatching(/^key_/),
        trace_id: span.spanContext().traceId,
      }),
    ]);
  });

  it('is off with telemetry: false: no span, no trace id, the traceparent ignored', async () => {
    const access: AccessLogEntry[] = [];
    const { send } = await traced({ telemetry: false, onAccess: (entry) => access.push(entry) });
    await send('GET', '/v1/scenarios', { headers: { traceparent: TRACEPARENT } });
    expect(serverSpans()).toEqual([]);
    expect(access.map((entry) => entry.trace_id)).toEqual([null]);
  });

  it('keeps the caller’s trace id in the logs even with no SDK registered', async () => {
    const access: AccessLogEntry[] = [];
    const { handler } = await createTestHandler({ onAccess: (entry) => access.push(entry) });
    await handler.handle(
      new Request('http://programrun.test/v1/scenarios', {
        headers: { authorization: `Bearer ${TEST_KEY}`, traceparent: TRACEPARENT },
      }),
    );
    await handler.handle(
      new Request('http://programrun.test/v1/scenarios', {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      }),
    );
    expect(access.map((entry) => entry.trace_id)).toEqual([TRACE_ID, null]);
  });
});

describe('http.server.request.duration', () => {
  it('records every request in seconds, by method, route, status and scheme', async () => {
    const own = meters();
    const { send } = await traced({ telemetry: { meterProvider: own.meterProvider } });
    await send('GET', '/v1/scenarios');
    await send('GET', '/v1/scenarios');
    await send('GET', '/v1/scenarios/wallet-delivery@v1');
    await send('GET', '/v1/nowhere');
    await own.reader.forceFlush();
    const metric = own.exporter
      .getMetrics()
      .at(-1)!
      .scopeMetrics.filter((scope) => scope.scope.name === '@programrun/http')
      .flatMap((scope) => scope.metrics)
      .find(
        (candidate) => candidate.descriptor.name === 'http.server.request.duration',
      ) as HistogramMetricData;
    expect(metric.descriptor.unit).toBe('s');
    const points = metric.dataPoints.map((point) => ({
      attributes: point.attributes,
      count: point.value.count,
    }));
    const get = (route: string | null, status: number) => ({
      'http.request.method': 'GET',
      ...(route === null ? {} : { 'http.route': route }),
      'http.response.status_code': status,
      'url.scheme': 'http',
    });
    expect(points).toEqual([
      { attributes: get('/v1/scenarios', 200), count: 2 },
      { attributes: get('/v1/scenarios/{id}', 200), count: 1 },
      { attributes: get(null, 404), count: 1 },
    ]);
    // No attribute carries a path: unmatched requests cannot grow the series.
    for (const point of metric.dataPoints) expect(point.attributes['url.path']).toBeUndefined();
    for (const point of metric.dataPoints) expect(point.value.sum).toBeLessThan(60);
  });
});
