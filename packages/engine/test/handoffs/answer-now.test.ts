import { verifyChain } from '@programrun/evidence';
import { describe, expect, it } from 'vitest';
import {
  partnerIdempotencyKey,
  type HandoffContext,
  type HandoffRequest,
} from '../../src/index.js';
import { createPayout, harness, jobsOf, live, recordsOf, typesOf } from './harness.js';

describe('a live connector that answers at once', () => {
  it('is called with the evaluated request and the pik_ key, and its answer is applied', async () => {
    const calls: { request: HandoffRequest; context: HandoffContext }[] = [];
    const { engine, store } = harness({
      connectors: {
        bank: (request, context) => {
          calls.push({ request, context });
          return Promise.resolve({
            outcome: 'confirmed',
            reference: 'PAY-1',
            data: { fee: '0.25' },
          });
        },
      },
    });
    const run = await createPayout(engine);
    const pik = partnerIdempotencyKey(run.id, 'pay', 1);
    expect(run.awaiting).toMatchObject({
      kind: 'handoff',
      step: 'pay',
      handoff_job: { status: 'queued', attempts: 0, next_attempt_at: run.created_at },
    });

    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.request).toEqual({
      run_id: run.id,
      step: 'pay',
      party: 'bank',
      action: 'payout.execute',
      data: { amount: '10.00' },
      idempotency_key: pik,
      environment: 'live',
      account: live.account,
    });
    expect(calls[0]!.context).toMatchObject({ attempt: 1, idempotencyKey: pik });
    expect(calls[0]!.context.deadline.toISOString()).toBe(run.awaiting!.deadline);
    expect(calls[0]!.context.signal.aborted).toBe(false);

    const done = await engine.getRun(live, run.id);
    expect(done.status).toBe('completed');
    expect(await typesOf(engine, live, run.id)).toEqual([
      'program_run.created',
      'program_run.stage.started',
      'program_run.handoff.requested',
      'program_run.handoff.attempted',
      'program_run.handoff.confirmed',
      'program_run.stage.completed',
      'program_run.completed',
      'program_run.evidence.sealed',
    ]);
    const [attempted] = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempted).toMatchObject({
      stage: 'payout',
      step: 'pay',
      data: {
        party: 'bank',
        attempt: 1,
        call: 1,
        outcome: 'answered',
        error_class: null,
        status: null,
        idempotency_key: pik,
        next_attempt_at: null,
      },
    });
    const [confirmed] = await recordsOf(engine, live, run.id, 'program_run.handoff.confirmed');
    expect(confirmed!.data).toMatchObject({
      reference: 'PAY-1',
      data: { fee: '0.25' },
      answered_by: { actor: 'connector:bank', credential_id: expect.stringMatching(/^wkr_/) },
    });
    expect(
      verifyChain(await engine.listEvents(live, run.id), {
        expectedHead: done.evidence.chain_head,
      }),
    ).toMatchObject({ ok: true });
    expect((await jobsOf(store, run.id)).map((job) => job.status)).toEqual(['closed']);
    // Nothing is due any more.
    expect(await engine.runDueHandoffs('live')).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('leaves a live party without a connector to the callback, with no job', async () => {
    const { engine, store } = harness();
    const run = await createPayout(engine);
    expect(run.awaiting?.handoff_job).toBeUndefined();
    expect(await jobsOf(store, run.id)).toEqual([]);
    expect(await engine.runDueHandoffs('live')).toBe(0);
  });
});
