// One trace per run, end to end: a wallet-delivery@v1 run created over HTTP (node:http on
// loopback), moved by the test clock (simulated partner answers, timers), approved over
// HTTP and delivered as webhooks to a real receiver, exported by the SDK's in-memory
// exporter. Every engine span of the run and the creating request share one trace id and
// hang off the right parents; the approval's request (no traceparent of its own) is linked;
// the receiver sees a traceparent in the run's trace on every delivery.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { parseTraceparent } from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from './adapter-servers.js';
import { createTestHandler, TEST_KEY } from './harness.js';

const contextManager = new AsyncLocalStorageContextManager();
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const telemetry = { tracerProvider };

/** A webhook receiver on loopback keeping each verified delivery's headers. */
async function startTracingReceiver() {
  const deliveries: {
    headers: IncomingHttpHeaders;
    event: { type: string; run?: { id: string } };
  }[] = [];
  const rejected: string[] = [];
  let secret = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        new Webhook(secret).verify(body, request.headers as Record<string, string>);
        deliveries.push({ headers: request.headers, event: JSON.parse(body) as never });
        response.writeHead(204).end();
      } catch (error) {
        rejected.push(String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    rejected,
    useSecret: (value: string) => void (secret = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await tracerProvider.shutdown();
});

const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

const WALLET = {
  scenario_id: 'wallet-delivery@v1',
  inputs: {
    amount: '125.00',
    destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    network: 'base',
    customer_reference: 'order-2291',
  },
};

/** A JSON call with the test key and a fresh Idempotency-Key; expects a 2xx. */
function caller(baseUrl: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(json)).toBeLessThan(300);
    return json;
  };
}

describe('one trace per run', () => {
  it('follows a wallet delivery from the HTTP create to completed, deliveries included', async () => {
    const { engine, handler } = await createTestHandler(
      { telemetry },
      { telemetry, webhooks: { allowLoopback: true } },
    );
    const served = await listen('node', handler);
    const receiver = await startTracingReceiver();
    const dispatcher = createWebhookDispatcher(engine, { timeoutMs: 2_000, concurrency: 4 });
    try {
      const call = caller(served.baseUrl);
      const endpoint = await call('POST', '/v1/webhook-endpoints', { url: receiver.url });
      receiver.useSecret(endpoint.secret as string);
      exporter.reset();

      const run = await call('POST', '/v1/program-runs', WALLET);
      const runId = run.id as string;
      await call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 }); // screening answers
      await call('POST', `/v1/program-runs/${runId}/approvals`, {
        step: 'release_approval',
        decision: 'approve',
        approver: 'ops:alice',
      });
      await call('POST', '/v1/test_helpers/clock/advance', { seconds: 600 }); // the transfer answers
      const finished = await call('GET', `/v1/program-runs/${runId}`);
      expect(finished.status).toBe('completed');
      await dispatcher.drain();
      expect(receiver.rejected).toEqual([]);

      const spans = exporter.getFinishedSpans();
      const byName = (name: string) => spans.filter((span) => span.name === name);
      const ofRun = (span: ReadableSpan) => span.attributes['programrun.run.id'] === runId;
      const create = byName('programrun.run.create').filter(ofRun);
      expect(create).toHaveLength(1);
      // Up from the create span (through its store transaction) to the request's span.
      const rootOf = (span: ReadableSpan): ReadableSpan => {
        const parent = spans.find((candidate) => idOf(candidate) === parentOf(span));
        return parent ? rootOf(parent) : span;
      };
      const createRequest = rootOf(create[0]!);
      expect(createRequest).toMatchObject({
        name: 'POST /v1/program-runs',
        kind: SpanKind.SERVER,
        parentSpanContext: undefined,
      });
      const traceId = create[0]!.spanContext().traceId;
      expect(createRequest.spanContext().traceId).toBe(traceId);
      // The run keeps its create span's context: later spans are its children.
      const stored = await engine.getRun({ account: 'acct_one', environment: 'test' }, runId);
      expect(stored).toBeDefined();

      const runSpans = spans.filter(ofRun);
      const names = new Set(runSpans.map((span) => span.name));
      for (const name of [
        'programrun.run.create',
        'programrun.run.signal',
        'programrun.handoff.call',
        'programrun.webhook.deliver',
      ])
        expect(names, name).toContain(name);
      // Every span about this run is in its trace.
      expect(runSpans.filter((span) => span.spanContext().traceId !== traceId)).toEqual([]);
      // Spans that start later (signals, simulated partner answers, timers, deliveries)
      // hang off the create span, not off whatever request happened to be running.
      const later = runSpans.filter((span) =>
        [
          'programrun.run.signal',
          'programrun.handoff.call',
          'programrun.timer.fire',
          'programrun.webhook.deliver',
        ].includes(span.name),
      );
      expect(later.length).toBeGreaterThan(5);
      expect(later.filter((span) => parentOf(span) !== idOf(create[0]!))).toEqual([]);
      // Both simulated partner answers, screening then transfer.
      expect(
        byName('programrun.handoff.call')
          .filter(ofRun)
          .map((span) => [
            span.attributes['programrun.step'],
            span.attributes['programrun.handoff.simulated'],
          ]),
      ).toEqual([
        ['screen_destination', true],
        ['transfer_to_wallet', true],
      ]);

      // The approval came without a traceparent: its request is a trace of its own, and the
      // signal span (in the run's trace) links to it.
      const approval = byName('programrun.run.signal').find(
        (span) => span.attributes['programrun.signal.kind'] === 'approval',
      )!;
      expect(approval).toBeDefined();
      const approvalRequest = byName('POST /v1/program-runs/{id}/approvals')[0]!;
      expect(approvalRequest.spanContext().traceId).not.toBe(traceId);
      const linked = approval.links.map((link) => link.context.traceId);
      expect(linked).toContain(approvalRequest.spanContext().traceId);

      // The receiver saw the run's trace on every delivery of the run's events: the
      // traceparent names the delivery's CLIENT span.
      const delivered = receiver.deliveries.filter((item) => item.event.run?.id === runId);
      expect(delivered.length).toBeGreaterThan(5);
      const deliverSpans = new Set(byName('programrun.webhook.deliver').map(idOf));
      for (const item of delivered) {
        const parent = parseTraceparent(item.headers.traceparent as string | undefined);
        expect(parent?.traceId).toBe(traceId);
        expect(deliverSpans.has(parent!.spanId)).toBe(true);
      }
    } finally {
      await dispatcher.stop();
      await receiver.close();
      await served.close();
    }
  });

  it('puts a timer that fires days later in the run trace', async () => {
    const { handler } = await createTestHandler({ telemetry }, { telemetry });
    const served = await listen('node', handler);
    try {
      const call = caller(served.baseUrl);
      exporter.reset();
      const runId = (await call('POST', '/v1/program-runs', WALLET)).id as string;
      await call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 }); // screening answers
      // Nobody approves: the approval expires after 4 hours and its timer fires.
      await call('POST', '/v1/test_helpers/clock/advance', { seconds: 5 * 3600 });
      const spans = exporter.getFinishedSpans();
      const ofRun = spans.filter((span) => span.attributes['programrun.run.id'] === runId);
      const create = ofRun.find((span) => span.name === 'programrun.run.create')!;
      const fired = ofRun.filter((span) => span.name === 'programrun.timer.fire');
      expect(fired.length).toBeGreaterThanOrEqual(1);
      for (const span of fired) {
        expect(span.spanContext().traceId).toBe(create.spanContext().traceId);
        expect(parentOf(span)).toBe(idOf(create));
      }
      expect((await call('GET', `/v1/program-runs/${runId}`)).status).not.toBe('awaiting_approval');
    } finally {
      await served.close();
    }
  });
});
