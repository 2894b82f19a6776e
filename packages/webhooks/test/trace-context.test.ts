// W3C trace context on the wire: connector calls and webhook deliveries carry the
// `traceparent` of their CLIENT span (in the run's trace), so a partner's or receiver's
// own trace joins; the Standard Webhooks signatures still verify.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  generateWebhookSecret,
  METRIC_NAMES,
  seededIds,
  type Scope,
  type TelemetryOptions,
} from '@programrun/engine';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { PAYOUT, START } from '../../engine/test/handoffs/harness.js';
import {
  metering,
  tracing,
  useContextManager,
} from '../../engine/test/telemetry/telemetry-harness.js';
import { createHttpConnector, createWebhookDispatcher, sendWebhook } from '../src/index.js';
import { closeServer } from './loopback-server.js';
import { answer, startPartner } from './partner-server.js';

useContextManager();

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const live: Scope = { account: 'acct_trace', environment: 'live' };
const test: Scope = { account: 'acct_trace', environment: 'test' };
const secret = generateWebhookSecret();

/** In-memory span and metric exporters behind providers for `createEngine({ telemetry })`. */
function sdk() {
  const traced = tracing();
  const metered = metering();
  cleanup.push(
    () => metered.shutdown(),
    () => traced.tracerProvider.shutdown(),
  );
  return {
    telemetry: {
      tracerProvider: traced.tracerProvider,
      meterProvider: metered.meterProvider,
    } satisfies TelemetryOptions,
    spans: traced.named,
    /** The points of metric `name` as [attributes, value or count]. */
    async points(name: string) {
      return (await metered.points(name)).map((point) => [
        point.attributes,
        typeof point.value === 'number' ? point.value : (point.value as { count: number }).count,
      ]);
    },
  };
}

/** The `traceparent` a span sends. */
const traceparentOf = (span: ReadableSpan): string =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

/** The create span of a run. */
function createSpan(spans: readonly ReadableSpan[], runId: string): ReadableSpan {
  const found = spans.find((span) => span.attributes['programrun.run.id'] === runId);
  expect(found, `no create span of ${runId}`).toBeDefined();
  return found!;
}

/** A loopback webhook receiver keeping every request's headers; answers `statuses` in turn (then 204). */
async function receiver(statuses: number[] = []) {
  const requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(statuses.shift() ?? 204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(() => closeServer(server));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, requests };
}

describe('connector requests', () => {
  it('carry the traceparent of their call span, in the run’s trace, once per call', async () => {
    const telemetry = sdk();
    const partner = await startPartner(secret);
    cleanup.push(() => partner.close());
    let calls = 0;
    partner.route = (_request, response) => {
      calls += 1;
      if (calls === 1) answer(response, 503);
      else answer(response, 200, { outcome: 'confirmed', reference: 'PAY-1' });
    };
    // The connector checks the deadline on the wall clock: the run starts now.
    const clock = createVirtualClock(new Date().toISOString());
    const engine = createEngine({
      store: createMemoryStore(),
      scenarios: [PAYOUT],
      clock,
      ids: seededIds('trace'),
      telemetry: telemetry.telemetry,
      handoffs: { retry: { initialMs: 1_000, factor: 2, maxMs: 1_000 } },
      connectors: {
        bank: createHttpConnector({ url: partner.url, secret, allowLoopback: true }),
      },
    });
    const { run } = await engine.createRun(live, {
      scenario_id: PAYOUT.id,
      inputs: { amount: '10.00' },
    });
    expect(await engine.runDueHandoffs('live')).toBe(1);
    clock.advanceTo(new Date(clock.now().getTime() + 5_000));
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect((await engine.getRun(live, run.id)).status).toBe('completed');

    const runTrace = createSpan(telemetry.spans('programrun.run.create'), run.id).spanContext();
    const spans = telemetry.spans('programrun.handoff.call');
    expect(spans.map((span) => span.attributes['programrun.outcome'])).toEqual([
      'transient',
      'answered',
    ]);
    expect(spans.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(spans.every((span) => span.spanContext().traceId === runTrace.traceId)).toBe(true);
    expect(partner.rejected).toEqual([]); // the signatures verify with the added header
    expect(partner.received.map((request) => request.headers.traceparent)).toEqual(
      spans.map(traceparentOf),
    );
    expect(partner.received.every((request) => request.headers.tracestate === undefined)).toBe(
      true,
    );
  });

  it('carry no traceparent without a tracer', async () => {
    const partner = await startPartner(secret);
    cleanup.push(() => partner.close());
    partner.route = (_request, response) =>
      answer(response, 200, { outcome: 'confirmed', reference: 'PAY-1' });
    const engine = createEngine({
      store: createMemoryStore(),
      scenarios: [PAYOUT],
      ids: seededIds('trace'),
      connectors: {
        bank: createHttpConnector({ url: partner.url, secret, allowLoopback: true }),
      },
    });
    await engine.createRun(live, { scenario_id: PAYOUT.id, inputs: { amount: '10.00' } });
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect(partner.received).toHaveLength(1);
    expect(partner.received[0]!.headers.traceparent).toBeUndefined();
    expect(partner.rejected).toEqual([]);
  });
});

describe('webhook deliveries', () => {
  it('are CLIENT spans in the run’s trace, one per attempt, whose traceparent the receiver gets', async () => {
    const telemetry = sdk();
    const hook = await receiver([500]);
    const clock = createVirtualClock(START);
    const engine = createEngine({
      store: createMemoryStore(),
      scenarios: [PAYOUT],
      clock,
      testClock: clock,
      ids: seededIds('trace'),
      telemetry: telemetry.telemetry,
      webhooks: { allowLoopback: true, random: () => 0.5 },
    });
    const endpoint = await engine.webhooks.createEndpoint(test, {
      url: hook.url,
      enabled_events: ['program_run.created'],
    });
    const dispatcher = createWebhookDispatcher(engine, { timeoutMs: 2_000 });
    cleanup.push(() => dispatcher.stop());
    const { run } = await engine.createRun(test, {
      scenario_id: PAYOUT.id,
      inputs: { amount: '10.00' },
    });
    expect(await dispatcher.drain()).toBe(1); // 500: retried later
    clock.advanceTo(new Date(Date.parse(START) + 3_600_000));
    expect(await dispatcher.drain()).toBe(1);

    const runTrace = createSpan(telemetry.spans('programrun.run.create'), run.id).spanContext();
    const spans = telemetry.spans('programrun.webhook.deliver');
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.spanContext().traceId).toBe(runTrace.traceId);
      expect(span.parentSpanContext?.spanId).toBe(runTrace.spanId);
    }
    expect(spans[0]!.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'http.response.status_code': 500,
      'error.type': '500',
      'programrun.webhook.endpoint': endpoint.id,
      'programrun.webhook.event_type': 'program_run.created',
      'programrun.webhook.attempt': 1,
      'programrun.account': test.account,
      'programrun.environment': 'test',
      'programrun.run.id': run.id,
      'programrun.outcome': 'retry',
    });
    expect(spans[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans[1]!.attributes).toMatchObject({
      'http.response.status_code': 204,
      'programrun.webhook.attempt': 2,
      'programrun.outcome': 'delivered',
    });
    expect(spans[1]!.status.code).toBe(SpanStatusCode.UNSET);

    expect(hook.requests.map((request) => request.headers.traceparent)).toEqual(
      spans.map(traceparentOf),
    );
    // The signature is over id.timestamp.body: the trace headers leave it valid.
    for (const request of hook.requests)
      expect(() =>
        new Webhook(endpoint.secret).verify(
          request.body,
          request.headers as Record<string, string>,
        ),
      ).not.toThrow();

    const attempts = await telemetry.points(METRIC_NAMES.deliveryAttempts);
    expect(attempts).toEqual(
      expect.arrayContaining([
        [{ 'programrun.environment': 'test', 'programrun.outcome': 'retry' }, 1],
        [{ 'programrun.environment': 'test', 'programrun.outcome': 'delivered' }, 1],
      ]),
    );
    const durations = await telemetry.points(METRIC_NAMES.deliveryDuration);
    expect(durations.reduce((sum, [, count]) => sum + (count as number), 0)).toBe(2);
  });
});

describe('sendWebhook', () => {
  it('sends the active span’s traceparent and tracestate, unless the request sets its own', async () => {
    const telemetry = sdk();
    const tracer = telemetry.telemetry.tracerProvider.getTracer('test');
    const hook = await receiver();
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: createTraceState('vendor=abc,other=1'),
    });
    const send = (headers: Record<string, string> = {}) =>
      sendWebhook({
        url: hook.url,
        headers,
        body: '{}',
        timeoutMs: 2_000,
        environment: 'test',
        allowLoopback: true,
      });
    const span = await tracer.startActiveSpan('deliver', {}, remote, async (active) => {
      await send();
      await send({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
      active.end();
      return active;
    });
    await send(); // no active span
    expect(hook.requests.map((request) => request.headers.traceparent)).toEqual([
      `00-4bf92f3577b34da6a3ce929d0e0e4736-${span.spanContext().spanId}-01`,
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      undefined,
    ]);
    expect(hook.requests[0]!.headers.tracestate).toBe('vendor=abc,other=1');
    expect(hook.requests[1]!.headers.tracestate).toBeUndefined();
    expect(hook.requests[2]!.headers.tracestate).toBeUndefined();
  });
});
