import { describe, expect, it } from 'vitest';
import { TransientConnectorError, type HandoffAnswer } from '../../src/index.js';
import { createPayout, deferred, harness, live } from './harness.js';

describe('flow control of live connectors', () => {
  it('opens the breaker after consecutive failures, shows the party degraded, then probes', async () => {
    let calls = 0;
    let healthy = false;
    const { engine, advance } = harness({
      connectors: {
        bank: {
          connector: () => {
            calls += 1;
            if (healthy)
              return Promise.resolve({ outcome: 'confirmed', reference: `PAY-${calls}` });
            return Promise.reject(new TransientConnectorError('connection', 'connection refused'));
          },
          breaker: { failureThreshold: 2, cooldownMs: 60_000 },
        },
      },
    });
    const first = await createPayout(engine);
    const second = await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(2);
    expect(calls).toBe(2);

    const [bank] = await engine.partners(live);
    expect(bank).toMatchObject({
      party: 'bank',
      connector: 'custom',
      concurrency: null,
      rate: null,
      max_per_account: null,
      queued: 2,
      in_flight: 0,
      breaker: { status: 'open', consecutive_failures: 2 },
      posture: 'degraded',
    });
    expect(bank!.breaker.retry_at).toBe(
      new Date(Date.parse(first.created_at) + 60_000).toISOString(),
    );
    const degraded = await engine.getRun(live, first.id);
    expect(degraded.posture.parties.find((party) => party.id === 'bank')?.status).toBe('degraded');

    // While open, nothing is called, however due.
    advance(30_000);
    expect(await engine.runDueHandoffs('live')).toBe(0);
    expect(calls).toBe(2);

    // After the cooldown one probe goes out; it succeeds and closes the breaker.
    advance(30_000);
    healthy = true;
    expect(await engine.runDueHandoffs('live')).toBe(2);
    expect(calls).toBe(4);
    const [recovered] = await engine.partners(live);
    expect(recovered).toMatchObject({
      breaker: { status: 'closed', retry_at: null },
      posture: 'ok',
    });
    for (const run of [first, second])
      expect((await engine.getRun(live, run.id)).status).toBe('completed');
    expect((await engine.getRun(live, first.id)).posture.parties[0]?.status).toBe('live');
  });

  it('calls no more than the rate allows', async () => {
    let calls = 0;
    const { engine, advance } = harness({
      connectors: {
        bank: {
          connector: () => {
            calls += 1;
            return Promise.resolve({ outcome: 'confirmed', reference: `PAY-${calls}` });
          },
          rate: 2, // per second, a bucket of two
        },
      },
    });
    for (let index = 0; index < 5; index += 1) await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(2);
    expect(await engine.runDueHandoffs('live')).toBe(0);
    advance(500);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    advance(1_000);
    expect(await engine.runDueHandoffs('live')).toBe(2);
    expect(calls).toBe(5);
    expect((await engine.partners(live))[0]).toMatchObject({ rate: 2, queued: 0 });
  });

  it('keeps no more calls in flight than the party’s concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    const gate = deferred<void>();
    const { engine } = harness({
      connectors: {
        bank: {
          connector: async (): Promise<HandoffAnswer> => {
            inFlight += 1;
            most = Math.max(most, inFlight);
            await gate.promise;
            inFlight -= 1;
            return { outcome: 'confirmed', reference: 'PAY' };
          },
          concurrency: 2,
        },
      },
    });
    for (let index = 0; index < 5; index += 1) await createPayout(engine);
    const working = engine.runDueHandoffs('live');
    while (inFlight < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    expect((await engine.partners(live))[0]).toMatchObject({
      concurrency: 2,
      in_flight: 2,
      queued: 3,
    });
    gate.resolve();
    expect(await working).toBe(5);
    expect(most).toBe(2);
  });

  it('refuses misconfigured limits where the engine is created', () => {
    expect(() =>
      harness({
        connectors: {
          bank: { connector: () => Promise.resolve('accepted' as const), concurrency: 0 },
        },
      }),
    ).toThrow(RangeError);
    expect(() =>
      harness({
        connectors: { bank: { connector: () => Promise.resolve('accepted' as const), rate: -1 } },
      }),
    ).toThrow(RangeError);
    expect(() => harness({ handoffs: { leaseMs: 0 } })).toThrow(RangeError);
  });
});
