// The spans of a run's life: its create span (whose context the run, its events and its
// handoff jobs keep), signals and timer firings in the run's trace (or in the caller's,
// linked, when it brought its own), and store transaction spans under whatever is active.
import { context, trace, type Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createMemoryStore,
  formatTraceparent,
  withCallerTrace,
  type Engine,
  type Scope,
  type StoreV1,
  type TelemetryOptions,
} from '../../src/index.js';
import { memoryEngine } from '../memory-engine.js';
import { catalogueScenarios, WALLET_INPUTS } from '../scenarios.js';
import { tracing, useContextManager } from './telemetry-harness.js';

const scope: Scope = { account: 'acct_spans', environment: 'test' };

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});
useContextManager();

function newEngine(telemetry: TelemetryOptions): { engine: Engine; store: StoreV1 } {
  const store = createMemoryStore();
  return { engine: memoryEngine(scenarios, 'run-spans', { store, telemetry }), store };
}

const create = (engine: Engine) =>
  engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs: WALLET_INPUTS });

const approve = (engine: Engine, runId: string) =>
  engine.signal(scope, runId, {
    kind: 'approval',
    step: 'release_approval',
    decision: 'approve',
    approver: 'ops:alice',
  });

/** Runs `work` in an active span of `tracer` (a request's, say) and returns that span. */
async function inRequest(
  provider: ReturnType<typeof tracing>['tracerProvider'],
  work: () => Promise<unknown>,
  wrap: (active: ReturnType<typeof context.active>) => ReturnType<typeof context.active> = (c) => c,
): Promise<Span> {
  const span = provider.getTracer('test').startSpan('request');
  try {
    await context.with(wrap(trace.setSpan(context.active(), span)), work);
  } finally {
    span.end();
  }
  return span;
}

const idOf = (span: ReadableSpan | Span) => span.spanContext().spanId;
const traceOf = (span: ReadableSpan | Span) => span.spanContext().traceId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const only = (spans: ReadableSpan[]): ReadableSpan => {
  expect(spans).toHaveLength(1);
  return spans[0]!;
};

describe('engine spans', () => {
  it('creates a run in a create span under the request and keeps its trace context', async () => {
    const traces = tracing();
    const { engine, store } = newEngine({ tracerProvider: traces.tracerProvider });
    let runId = '';
    const request = await inRequest(traces.tracerProvider, async () => {
      runId = (await create(engine)).run.id;
    });

    const created = only(traces.named('programrun.run.create'));
    expect(parentOf(created)).toBe(idOf(request));
    expect(traceOf(created)).toBe(traceOf(request));
    expect(created.attributes).toMatchObject({
      'programrun.run.id': runId,
      'programrun.run.status': 'waiting',
      'programrun.scenario.id': 'wallet-delivery@v1',
      'programrun.scenario.version': 'v1',
      'programrun.stage': 'intake',
      'programrun.account': scope.account,
      'programrun.environment': 'test',
      'programrun.outcome': 'created',
    });
    // The store transaction is a child of the create span.
    const transaction = only(traces.named('programrun.store.transaction'));
    expect(parentOf(transaction)).toBe(idOf(created));
    expect(transaction.attributes['programrun.store.conflict_retries']).toBe(0);

    // The run, its events and its handoff job keep the create span's context.
    const traceparent = formatTraceparent(created.spanContext());
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await store.transaction(async (tx) => {
      expect((await tx.getRun(scope, runId))?.trace_context).toBe(traceparent);
      const events = await tx.listWebhookEvents(scope, { run_id: runId, limit: 100 });
      expect(events.data.length).toBeGreaterThan(0);
      expect(events.data.every((event) => event.trace_context === traceparent)).toBe(true);
      const jobs = await tx.handoffJobsOfRun(runId);
      expect(jobs.map((job) => job.trace_context)).toEqual([traceparent]);
    });
  });

  it('keeps the create span’s context through the run’s life, on every event and job', async () => {
    const traces = tracing();
    const { engine, store } = newEngine({ tracerProvider: traces.tracerProvider });
    const { run } = await create(engine);
    const traceparent = formatTraceparent(
      only(traces.named('programrun.run.create')).spanContext(),
    );
    await engine.advanceTestClock(scope.account, 20);
    await approve(engine, run.id);
    await engine.advanceTestClock(scope.account, 60);
    expect((await engine.getRun(scope, run.id)).status).toBe('completed');
    await store.transaction(async (tx) => {
      expect((await tx.getRun(scope, run.id))?.trace_context).toBe(traceparent);
      const events = await tx.listWebhookEvents(scope, { run_id: run.id, limit: 100 });
      expect(events.data.length).toBeGreaterThan(10);
      expect(new Set(events.data.map((event) => event.trace_context))).toEqual(
        new Set([traceparent]),
      );
      const jobs = await tx.handoffJobsOfRun(run.id);
      expect(jobs.map((job) => job.trace_context)).toEqual([traceparent, traceparent]);
    });
    // Every engine span of the run is in its one trace.
    const traceIds = new Set(traces.spans().map((span) => span.spanContext().traceId));
    expect(traceIds).toEqual(new Set([traceparent!.split('-')[1]]));
  });

  it('puts a later signal in the run’s trace, linked to the active span', async () => {
    const traces = tracing();
    const { engine, store } = newEngine({ tracerProvider: traces.tracerProvider });
    const { run } = await create(engine);
    await engine.advanceTestClock(scope.account, 20);
    traces.reset();

    const request = await inRequest(traces.tracerProvider, () => approve(engine, run.id));

    const stored = await store.transaction((tx) => tx.getRun(scope, run.id));
    const runContext = stored!.trace_context!;
    const signal = only(traces.named('programrun.run.signal'));
    expect(formatTraceparent(signal.parentSpanContext)).toBe(runContext);
    expect(traceOf(signal)).not.toBe(traceOf(request));
    // The transaction (the request's child) was active: the signal links to it.
    const transaction = only(traces.named('programrun.store.transaction'));
    expect(parentOf(transaction)).toBe(idOf(request));
    expect(signal.links.map((link) => link.context.spanId)).toEqual([idOf(transaction)]);
    expect(signal.attributes).toMatchObject({
      'programrun.run.id': run.id,
      'programrun.signal.kind': 'approval',
      'programrun.step': 'release_approval',
      'programrun.stage': 'delivery',
      'programrun.run.status': 'waiting',
      'programrun.outcome': 'applied',
    });
  });

  it('puts a signal that brought its caller’s trace in that trace, linked to the run’s', async () => {
    const traces = tracing();
    const { engine, store } = newEngine({ tracerProvider: traces.tracerProvider });
    const { run } = await create(engine);
    await engine.advanceTestClock(scope.account, 20);
    traces.reset();

    const caller = await inRequest(
      traces.tracerProvider,
      () => approve(engine, run.id),
      withCallerTrace,
    );

    const stored = await store.transaction((tx) => tx.getRun(scope, run.id));
    const signal = only(traces.named('programrun.run.signal'));
    const transaction = only(traces.named('programrun.store.transaction'));
    // caller → store transaction → signal, one trace; the signal links to the run's trace.
    expect(parentOf(transaction)).toBe(idOf(caller));
    expect(parentOf(signal)).toBe(idOf(transaction));
    expect(traceOf(signal)).toBe(traceOf(caller));
    expect(signal.links.map((link) => formatTraceparent(link.context))).toEqual([
      stored!.trace_context,
    ]);
  });

  it('puts a signal made outside any span in the run’s trace, with no transaction span', async () => {
    const traces = tracing();
    const { engine } = newEngine({ tracerProvider: traces.tracerProvider });
    const { run } = await create(engine);
    const created = only(traces.named('programrun.run.create'));
    await engine.advanceTestClock(scope.account, 20);
    traces.reset();

    await approve(engine, run.id);

    const signal = only(traces.named('programrun.run.signal'));
    expect(parentOf(signal)).toBe(idOf(created));
    expect(traceOf(signal)).toBe(traceOf(created));
    expect(signal.links).toEqual([]);
    // Background work outside any span starts no trace of its own.
    expect(traces.named('programrun.store.transaction')).toEqual([]);
  });

  it('fires a timer in a span of the run’s trace', async () => {
    const traces = tracing();
    const { engine } = newEngine({ tracerProvider: traces.tracerProvider });
    const { run } = await create(engine);
    const created = only(traces.named('programrun.run.create'));
    await engine.advanceTestClock(scope.account, 20);
    // The release approval expires after PT4H: its timer fires.
    await engine.advanceTestClock(scope.account, 4 * 3600);
    const after = await engine.getRun(scope, run.id);

    const fired = only(traces.named('programrun.timer.fire'));
    expect(parentOf(fired)).toBe(idOf(created));
    expect(traceOf(fired)).toBe(traceOf(created));
    expect(fired.attributes).toMatchObject({
      'programrun.run.id': run.id,
      'programrun.step': 'release_approval',
      'programrun.timer.kind': 'expiry',
      'programrun.run.status': after.status,
      'programrun.outcome': 'applied',
    });
  });

  it('records a refused signal as an error on its span', async () => {
    const traces = tracing();
    const { engine } = newEngine({ tracerProvider: traces.tracerProvider });
    const { run } = await create(engine);
    await expect(approve(engine, run.id)).rejects.toThrow();
    const signal = only(traces.named('programrun.run.signal'));
    expect(signal.status.code).toBe(2);
    expect(signal.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('emits no span and keeps no trace context with telemetry off', async () => {
    const traces = tracing();
    const { engine, store } = newEngine(false);
    let runId = '';
    await inRequest(traces.tracerProvider, async () => {
      runId = (await create(engine)).run.id;
      await engine.advanceTestClock(scope.account, 20);
      await approve(engine, runId);
    });
    expect(traces.spans().map((span) => span.name)).toEqual(['request']);
    await store.transaction(async (tx) => {
      expect((await tx.getRun(scope, runId))?.trace_context ?? null).toBeNull();
      const events = await tx.listWebhookEvents(scope, { run_id: runId, limit: 100 });
      expect(events.data.every((event) => (event.trace_context ?? null) === null)).toBe(true);
      const jobs = await tx.handoffJobsOfRun(runId);
      expect(jobs.every((job) => (job.trace_context ?? null) === null)).toBe(true);
    });
  });
});
