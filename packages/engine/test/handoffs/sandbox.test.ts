import { describe, expect, it } from 'vitest';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  deterministicId,
  seededIds,
  type Engine,
  type StoreV1,
} from '../../src/index.js';
import { PAYOUT, START, createPayout, jobsOf, test } from './harness.js';

function sandboxEngine(base = createVirtualClock(START)) {
  const store = createMemoryStore();
  const engine = createEngine({
    store,
    scenarios: [PAYOUT],
    testClock: base,
    ids: seededIds('sandbox'),
  });
  return { engine, store, base };
}

const history = async (engine: Engine, runId: string) =>
  (await engine.listEvents(test, runId)).map(({ type, created, data, hash }) => ({
    type,
    created,
    data,
    hash,
  }));

/** Makes a run look like one created before sandbox jobs: a partner_response timer instead. */
async function asLegacyRun(store: StoreV1, runId: string, dueAt: string): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.closeHandoffJobs(runId, [], START);
    await tx.scheduleTimers([
      {
        id: deterministicId('tmr', `${runId}:pay:1:partner_response`),
        run_id: runId,
        account: test.account,
        environment: 'test',
        kind: 'partner_response',
        step: 'pay',
        attempt: 1,
        due_at: dueAt,
        payload: {},
        status: 'pending',
      },
    ]);
  });
}

describe('the sandbox connector in the test environment', () => {
  it('answers when the test clock reaches the simulated latency, unrecorded', async () => {
    const { engine, store } = sandboxEngine();
    const run = await createPayout(engine, test);
    const answerAt = '2026-03-02T09:00:05.000Z'; // the bank's simulated latency, PT5S
    expect(run.awaiting?.handoff_job).toEqual({
      status: 'queued',
      attempts: 0,
      next_attempt_at: answerAt,
      last_error: null,
    });
    expect(await engine.nextTimerDue(test)).toBe(answerAt);
    expect(await engine.partners(test)).toMatchObject([
      { party: 'bank', connector: 'sandbox', queued: 1, breaker: { status: 'closed' } },
    ]);

    expect(await engine.advanceTestClock(test.account, 4)).toMatchObject({ fired: 0 });
    expect(await engine.advanceTestClock(test.account, 60)).toMatchObject({ fired: 1 });
    const records = await engine.listEvents(test, run.id);
    expect(records.map((record) => record.type)).not.toContain('program_run.handoff.attempted');
    const confirmed = records.find((record) => record.type === 'program_run.handoff.confirmed')!;
    expect(confirmed.created).toBe(answerAt);
    expect(confirmed.data).toMatchObject({
      reference: expect.stringMatching(/^sim_/),
      data: { settled: true },
    });
    expect((await engine.getRun(test, run.id)).status).toBe('completed');
    expect((await jobsOf(store, run.id))[0]).toMatchObject({ status: 'closed', calls: 1 });
    expect(await engine.partners(test)).toEqual([]);
  });

  it('answers from the background scheduler’s runDueTimers and from runDueHandoffs', async () => {
    for (const drive of ['runDueTimers', 'runDueHandoffs'] as const) {
      const { engine, base } = sandboxEngine();
      const run = await createPayout(engine, test);
      expect(await engine[drive]('test')).toBe(0);
      base.advanceTo(new Date('2026-03-02T09:00:05.000Z'));
      expect(await engine[drive]('test')).toBe(1);
      expect((await engine.getRun(test, run.id)).status).toBe('completed');
    }
  });

  it('still fires a partner_response timer written before jobs, with the same history', async () => {
    const viaJob = sandboxEngine();
    const jobRun = await createPayout(viaJob.engine, test);
    await viaJob.engine.advanceTestClock(test.account, 60);

    const legacy = sandboxEngine();
    const legacyRun = await createPayout(legacy.engine, test);
    await asLegacyRun(legacy.store, legacyRun.id, '2026-03-02T09:00:05.000Z');
    expect(await legacy.engine.advanceTestClock(test.account, 60)).toMatchObject({ fired: 1 });

    expect(legacyRun.id).toBe(jobRun.id);
    expect(await history(legacy.engine, legacyRun.id)).toEqual(
      await history(viaJob.engine, jobRun.id),
    );
  });
});
