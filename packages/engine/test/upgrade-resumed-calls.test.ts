// engine.upgradeRuns giving a live handoff a later deadline after its calls gave up: a job
// that exhausted its retries before the old timeout (the partner kept failing) would never
// be called again, and the run would sit until the new, later timeout. The upgrade queues it
// again at once, with the same request and partner key and its calls counted on, and says so
// in the upgrade record (`calls_resumed`); a job still queued just gets the new deadline.
import { describe, expect, it } from 'vitest';
import { checkUpgrade, compile, type CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  type Engine,
  type HandoffJobRow,
  type HandoffRequest,
  type Scope,
} from '../src/index.js';
import { LIVE_BANK_PAYOUT_V1 } from './upgrade-support.js';

const V1 = LIVE_BANK_PAYOUT_V1;
const V2 = {
  text: V1.text
    .replace('version: v1', 'version: v2')
    .replace(
      '          reference: inputs.payout_reference\n        timeout: PT5M\n',
      '          reference: inputs.payout_reference\n        timeout: PT15M\n',
    ),
  file: 'bank-payout@v2.yaml',
};
const MIGRATION = {
  text: 'scenario: bank-payout\nfrom: v1\nto: v2\ndeadlines:\n  hold_funds: new_version\n',
  file: 'bank-payout@v1-to-v2.yaml',
};
const [v1, v2] = [V1, V2].map(({ text, file }) => compile(text, { file })) as [
  CompiledScenario,
  CompiledScenario,
];
const scope: Scope = { account: 'acct_upgrade_resumed', environment: 'live' };
const OPERATOR = 'ops:upgrader';
const MINUTE = 60_000;

/** A live engine whose safeguarding bank confirms every hold it is asked for. */
function liveEngine() {
  const calls: HandoffRequest[] = [];
  const engine: Engine = createEngine({
    store: createMemoryStore(),
    scenarios: [v1, v2],
    connectors: {
      safeguarding_bank: {
        connector: (request) => {
          calls.push(request);
          return Promise.resolve({
            outcome: 'confirmed',
            reference: `hold-${request.idempotency_key}`,
            data: { hold_id: 'hold-PO-2026-000412', held_amount: request.data.amount! },
          });
        },
      },
    },
  });
  return { engine, calls };
}

const jobOf = async (engine: Engine, runId: string): Promise<HandoffJobRow> =>
  (await engine.unitOfWork(scope, ({ tx }) => tx.handoffJobsOfRun(runId)))[0]!;

/** A live run waiting for its hold, whose job gave up after three failed calls. */
async function exhaustedRun(engine: Engine): Promise<{ runId: string; job: HandoffJobRow }> {
  const { run } = await engine.createRun(scope, {
    scenario_id: v1.id,
    inputs: v1.definition.example_inputs,
  });
  const queued = await jobOf(engine, run.id);
  const job: HandoffJobRow = {
    ...queued,
    status: 'exhausted',
    calls: 3,
    last_error: {
      class: 'http_5xx',
      message: 'The partner answered 503.',
      status: 503,
      at: queued.created_at,
    },
  };
  await engine.unitOfWork(scope, ({ tx }) => tx.updateHandoffJob(job, queued));
  return { runId: run.id, job };
}

describe('engine.upgradeRuns with a later deadline for a handoff that gave up', () => {
  it('queues its call again, with the same request and key, and records that it did', async () => {
    const report = checkUpgrade(V1, V2, MIGRATION);
    expect(report.problems).toEqual([]);
    const { engine, calls } = liveEngine();
    const { runId, job } = await exhaustedRun(engine);
    // Given up: nothing calls the partner any more.
    expect(await engine.runDueHandoffs('live')).toBe(0);

    const result = await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    expect(result.runs).toEqual([expect.objectContaining({ run_id: runId, outcome: 'upgraded' })]);
    const resumed = await jobOf(engine, runId);
    expect(resumed).toMatchObject({
      status: 'queued',
      calls: 3,
      lease_owner: null,
      idempotency_key: job.idempotency_key,
      request: job.request,
    });
    expect(Date.parse(resumed.deadline)).toBe(Date.parse(job.deadline) + 10 * MINUTE);
    expect(Date.parse(resumed.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    const upgraded = (await engine.listEvents(scope, runId)).at(-1)!;
    expect(upgraded.type).toBe('program_run.upgraded');
    expect(upgraded.data.deadlines_moved).toEqual({
      hold_funds: { from: job.deadline, to: resumed.deadline, calls_resumed: true },
    });

    // The partner is called again, as the fourth call of the same handoff, and answers.
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect(calls).toEqual([job.request]);
    const attempted = (await engine.listEvents(scope, runId)).find(
      (record) => record.type === 'program_run.handoff.attempted',
    );
    expect(attempted?.data).toMatchObject({ call: 4, outcome: 'answered' });
    expect((await engine.getRun(scope, runId)).awaiting?.step).toBe('screen_beneficiary');
  });

  it('gives a job still being called the new deadline only', async () => {
    const report = checkUpgrade(V1, V2, MIGRATION);
    const { engine } = liveEngine();
    const { run } = await engine.createRun(scope, {
      scenario_id: v1.id,
      inputs: v1.definition.example_inputs,
    });
    const queued = await jobOf(engine, run.id);
    await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    const moved = await jobOf(engine, run.id);
    expect(moved).toMatchObject({
      status: 'queued',
      calls: 0,
      next_attempt_at: queued.next_attempt_at,
    });
    expect((await engine.listEvents(scope, run.id)).at(-1)?.data.deadlines_moved).toEqual({
      hold_funds: { from: queued.deadline, to: moved.deadline },
    });
  });

  it('leaves a job that gave up alone when the migration keeps the deadline', async () => {
    const report = checkUpgrade(V1, V2);
    expect(report.problems).toEqual([]);
    const { engine, calls } = liveEngine();
    const { runId, job } = await exhaustedRun(engine);
    await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    expect(await jobOf(engine, runId)).toMatchObject({
      status: 'exhausted',
      deadline: job.deadline,
    });
    expect(await engine.runDueHandoffs('live')).toBe(0);
    expect(calls).toEqual([]);
  });
});
