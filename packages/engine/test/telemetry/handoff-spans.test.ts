// Connector calls as spans: one `programrun.handoff.call` per call, in the run's trace.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createVirtualClock,
  partnerIdempotencyKey,
  PermanentConnectorError,
  TransientConnectorError,
  withCallerTrace,
  type HandoffAnswer,
  type HandoffConnector,
} from '../../src/index.js';
import { createPayout, deferred, harness, START, test as testScope } from '../handoffs/harness.js';
import { sdkHarness } from './handoff-telemetry.js';

const manager = new AsyncLocalStorageContextManager();
beforeAll(() => void context.setGlobalContextManager(manager.enable()));
afterAll(() => {
  manager.disable();
  context.disable();
});

const CALL = 'programrun.handoff.call';
const CREATE = 'programrun.run.create';

const outcomeOf = (span: ReadableSpan) => span.attributes['programrun.outcome'];

/** The create span of a run (its trace's root in these tests). */
function createSpanOf(spans: readonly ReadableSpan[], runId: string): ReadableSpan {
  const found = spans.find((span) => span.attributes['programrun.run.id'] === runId);
  expect(found, `no ${CREATE} span of ${runId}`).toBeDefined();
  return found!;
}

/** A connector that plays `script` call by call. */
function scripted(script: readonly (() => HandoffAnswer | 'accepted')[]): HandoffConnector {
  let calls = 0;
  return async () => {
    calls += 1;
    await Promise.resolve();
    return script[Math.min(calls - 1, script.length - 1)]!();
  };
}

describe('connector call spans', () => {
  it('puts a live call in a CLIENT span of the run’s trace, active while the connector runs', async () => {
    const sdk = sdkHarness();
    let activeInConnector: string | undefined;
    const { engine } = harness({
      telemetry: sdk.telemetry,
      connectors: {
        bank: async () => {
          activeInConnector = trace.getActiveSpan()?.spanContext().spanId;
          await Promise.resolve();
          return { outcome: 'confirmed', reference: 'PAY-1' };
        },
      },
    });
    const run = await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);

    const create = createSpanOf(sdk.spans(CREATE), run.id);
    const [call, ...others] = sdk.spans(CALL);
    expect(others).toEqual([]);
    expect(call!.kind).toBe(SpanKind.CLIENT);
    expect(call!.spanContext().traceId).toBe(create.spanContext().traceId);
    expect(call!.parentSpanContext?.spanId).toBe(create.spanContext().spanId);
    expect(call!.links).toEqual([]);
    expect(activeInConnector).toBe(call!.spanContext().spanId);
    expect(call!.attributes).toEqual({
      'programrun.run.id': run.id,
      'programrun.step': 'pay',
      'programrun.party': 'bank',
      'programrun.account': 'acct_live',
      'programrun.environment': 'live',
      'programrun.handoff.call': 1,
      'programrun.handoff.job': expect.stringMatching(/^hjob_/),
      'programrun.handoff.idempotency_key': partnerIdempotencyKey(run.id, 'pay', 1),
      'programrun.outcome': 'answered',
      'programrun.handoff.answer': 'confirmed',
    });
    expect(call!.status.code).toBe(SpanStatusCode.UNSET);
    await sdk.shutdown();
  });

  it('makes one span per call of a retried job, each with its call number and error class', async () => {
    const sdk = sdkHarness();
    const { engine, advance } = harness({
      telemetry: sdk.telemetry,
      handoffs: { retry: { initialMs: 1_000, factor: 2, maxMs: 10_000 } },
      connectors: {
        bank: scripted([
          () => {
            throw new TransientConnectorError('http_5xx', 'bad gateway', 502);
          },
          () => {
            throw new Error('socket hang up');
          },
          () => ({ outcome: 'rejected', reference: 'PAY-3' }),
        ]),
      },
    });
    const run = await createPayout(engine);
    for (let call = 0; call < 3; call += 1) {
      expect(await engine.runDueHandoffs('live')).toBe(1);
      advance(10_000);
    }
    const create = createSpanOf(sdk.spans(CREATE), run.id);
    const calls = sdk.spans(CALL);
    expect(calls.map((span) => span.attributes['programrun.handoff.call'])).toEqual([1, 2, 3]);
    expect(calls.map(outcomeOf)).toEqual(['transient', 'transient', 'answered']);
    expect(calls.map((span) => span.attributes['programrun.error.class'])).toEqual([
      'http_5xx',
      'thrown',
      undefined,
    ]);
    expect(calls.map((span) => span.status.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.ERROR,
      SpanStatusCode.UNSET,
    ]);
    expect(calls[2]!.attributes['programrun.handoff.answer']).toBe('rejected');
    for (const span of calls) {
      expect(span.spanContext().traceId).toBe(create.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(create.spanContext().spanId);
    }
    await sdk.shutdown();
  });

  it('says a call was accepted, or refused for good', async () => {
    const sdk = sdkHarness();
    let refuse = false;
    const { engine } = harness({
      telemetry: sdk.telemetry,
      connectors: {
        bank: () => {
          if (!refuse) return Promise.resolve('accepted' as const);
          throw new PermanentConnectorError('http_4xx', 'unknown account', { status: 422 });
        },
      },
    });
    await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    refuse = true;
    await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    const [accepted, refused] = sdk.spans(CALL);
    expect(outcomeOf(accepted!)).toBe('accepted');
    expect(accepted!.status.code).toBe(SpanStatusCode.UNSET);
    expect(refused!.attributes).toMatchObject({
      'programrun.outcome': 'permanent',
      'programrun.error.class': 'http_4xx',
    });
    expect(refused!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'http_4xx' });
    await sdk.shutdown();
  });

  it('says a call was dropped when another worker took it over after the lease', async () => {
    const sdk = sdkHarness();
    const store = createMemoryStore();
    const clock = createVirtualClock(START);
    const stuck = deferred<HandoffAnswer>();
    let called = false;
    const hostA = harness({
      store,
      clock,
      telemetry: sdk.telemetry,
      connectors: {
        bank: () => {
          called = true;
          return stuck.promise;
        },
      },
    });
    const hostB = harness({
      store,
      clock,
      telemetry: sdk.telemetry,
      connectors: {
        bank: () => Promise.resolve({ outcome: 'confirmed' as const, reference: 'FROM-B' }),
      },
    });
    await createPayout(hostA.engine);
    const aWorking = hostA.engine.runDueHandoffs('live');
    while (!called) await new Promise((resolve) => setTimeout(resolve, 1));
    hostA.advance(30_001);
    expect(await hostB.engine.runDueHandoffs('live')).toBe(1);
    stuck.resolve({ outcome: 'confirmed', reference: 'FROM-A' });
    expect(await aWorking).toBe(0);
    const calls = sdk.spans(CALL);
    expect(
      calls.map((span) => [span.attributes['programrun.handoff.call'], outcomeOf(span)]),
    ).toEqual([
      [2, 'answered'],
      [1, 'dropped'],
    ]);
    await sdk.shutdown();
  });

  it('traces a simulated answer of the test environment as an INTERNAL call span', async () => {
    const sdk = sdkHarness();
    const { engine } = harness({ telemetry: sdk.telemetry });
    const run = await createPayout(engine, testScope);
    await engine.advanceTestClock(testScope.account, 60);
    expect((await engine.getRun(testScope, run.id)).status).toBe('completed');
    const create = createSpanOf(sdk.spans(CREATE), run.id);
    const [answer, ...others] = sdk.spans(CALL);
    expect(others).toEqual([]);
    expect(answer!.kind).toBe(SpanKind.INTERNAL);
    expect(answer!.spanContext().traceId).toBe(create.spanContext().traceId);
    expect(answer!.attributes).toMatchObject({
      'programrun.run.id': run.id,
      'programrun.environment': 'test',
      'programrun.account': testScope.account,
      'programrun.party': 'bank',
      'programrun.handoff.simulated': true,
      'programrun.handoff.call': 1,
      'programrun.outcome': 'answered',
      'programrun.handoff.answer': 'confirmed',
    });
    await sdk.shutdown();
  });

  it('links the active span that ran the calls, or joins the caller’s trace when it brought one', async () => {
    const sdk = sdkHarness();
    const tracer = sdk.telemetry.tracerProvider.getTracer('test');
    const { engine } = harness({
      telemetry: sdk.telemetry,
      connectors: {
        bank: () => Promise.resolve({ outcome: 'confirmed' as const, reference: 'PAY' }),
      },
    });
    const first = await createPayout(engine);
    const driver = await tracer.startActiveSpan('driver', async (span) => {
      await engine.runDueHandoffs('live');
      span.end();
      return span;
    });
    const second = await createPayout(engine);
    const caller = await tracer.startActiveSpan('caller', async (span) => {
      await context.with(withCallerTrace(context.active()), () => engine.runDueHandoffs('live'));
      span.end();
      return span;
    });
    const creates = sdk.spans(CREATE);
    const [inRunTrace, inCallerTrace] = sdk.spans(CALL);
    const firstTrace = createSpanOf(creates, first.id).spanContext();
    expect(inRunTrace!.spanContext().traceId).toBe(firstTrace.traceId);
    expect(inRunTrace!.links.map((link) => link.context.spanId)).toEqual([
      driver.spanContext().spanId,
    ]);
    const secondTrace = createSpanOf(creates, second.id).spanContext();
    expect(inCallerTrace!.spanContext().traceId).toBe(caller.spanContext().traceId);
    expect(inCallerTrace!.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(inCallerTrace!.links.map((link) => link.context.spanId)).toEqual([secondTrace.spanId]);
    await sdk.shutdown();
  });

  it('keeps calls that another request’s commit woke out of that request’s trace', async () => {
    const sdk = sdkHarness();
    const tracer = sdk.telemetry.tracerProvider.getTracer('test');
    let calls = 0;
    const { engine, advance } = harness({
      telemetry: sdk.telemetry,
      handoffs: { pollIntervalMs: 60_000 },
      connectors: {
        bank: () => {
          calls += 1;
          if (calls === 1)
            return Promise.reject(new TransientConnectorError('connection', 'refused'));
          return Promise.resolve({ outcome: 'confirmed' as const, reference: 'PAY' });
        },
      },
    });
    const settle = async (count: number) => {
      for (let wait = 0; wait < 1_000 && sdk.spans(CALL).length < count; wait += 1)
        await new Promise((resolve) => setTimeout(resolve, 2));
      await new Promise((resolve) => setTimeout(resolve, 20)); // the pass after the call ends
    };
    const workers = engine.startHandoffWorkers();
    try {
      const first = await createPayout(engine); // its commit wakes the workers: call 1 fails
      await settle(1);
      advance(10_000); // the retry of the first run's job is due
      // Another run's request wakes the workers: they call both jobs.
      const request = await tracer.startActiveSpan('request', async (span) => {
        await createPayout(engine);
        span.end();
        return span;
      });
      await settle(3);
      const retry = sdk
        .spans(CALL)
        .find(
          (span) =>
            span.attributes['programrun.run.id'] === first.id &&
            span.attributes['programrun.handoff.call'] === 2,
        );
      const firstTrace = createSpanOf(sdk.spans(CREATE), first.id).spanContext().traceId;
      expect(retry!.spanContext().traceId).toBe(firstTrace);
      expect(firstTrace).not.toBe(request.spanContext().traceId);
      expect(retry!.links).toEqual([]);
    } finally {
      await workers.stop();
    }
    await sdk.shutdown();
  });

  it('makes no spans with telemetry off, and calls as before', async () => {
    const sdk = sdkHarness();
    const { engine } = harness({
      telemetry: false,
      connectors: {
        bank: () => Promise.resolve({ outcome: 'confirmed' as const, reference: 'PAY' }),
      },
    });
    await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect(sdk.spans()).toEqual([]);
    await sdk.shutdown();
  });
});
