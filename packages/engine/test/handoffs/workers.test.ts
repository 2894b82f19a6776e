import { describe, expect, it } from 'vitest';
import { startScheduler, type HandoffAnswer } from '../../src/index.js';
import { createPayout, deferred, harness, live } from './harness.js';

describe('background handoff workers', () => {
  it('are woken by the commit that queued a job, and stop after the calls in flight', async () => {
    const called = deferred<void>();
    const answer = deferred<HandoffAnswer>();
    const { engine } = harness({
      // A poll this slow never runs during the test: only the wake-up can start the call.
      handoffs: { pollIntervalMs: 3_600_000 },
      connectors: {
        bank: async () => {
          called.resolve();
          return answer.promise;
        },
      },
    });
    const workers = engine.startHandoffWorkers();
    const run = await createPayout(engine);
    await called.promise;
    const stopping = workers.stop();
    answer.resolve({ outcome: 'confirmed', reference: 'PAY-1' });
    await stopping;
    expect((await engine.getRun(live, run.id)).status).toBe('completed');
  });

  it('start and stop with the scheduler', async () => {
    const called = deferred<void>();
    const { engine } = harness({
      handoffs: { pollIntervalMs: 5 },
      connectors: {
        bank: () => {
          called.resolve();
          return Promise.resolve({ outcome: 'confirmed', reference: 'PAY-1' });
        },
      },
    });
    const run = await createPayout(engine);
    const scheduler = startScheduler(engine, { intervalMs: 5 });
    await called.promise;
    await scheduler.stop();
    expect((await engine.getRun(live, run.id)).status).toBe('completed');
  });
});
