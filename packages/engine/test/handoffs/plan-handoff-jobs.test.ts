import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import { handoffJobId, planHandoffJobs } from '../../src/handoffs/plan-handoff-jobs.js';
import { partnerIdempotencyKey } from '../../src/handoffs/partner-key.js';
import { planTimers } from '../../src/time/timer-plan.js';
import { catalogueScenarios, WALLET_INPUTS } from '../scenarios.js';

const NOW = new Date('2026-03-02T09:00:00.000Z');
let wallet: CompiledScenario;
beforeAll(async () => {
  wallet = (await catalogueScenarios()).find((scenario) => scenario.id === 'wallet-delivery@v1')!;
});

function plannedJobs(environment: 'test' | 'live', parties: readonly string[] = []) {
  const started = wallet.start({ environment, inputs: WALLET_INPUTS });
  const { facts } = planTimers({
    compiled: wallet,
    runId: 'prun_kernel',
    account: 'acct_kernel',
    environment,
    now: NOW,
    facts: started.facts,
    context: started.snapshot.context,
  });
  return planHandoffJobs({
    compiled: wallet,
    runId: 'prun_kernel',
    account: 'acct_kernel',
    environment,
    now: NOW,
    facts,
    awaiting: started.state.awaiting,
    sandbox: {},
    hasConnector: (party) => parties.includes(party),
  });
}

describe('planHandoffJobs', () => {
  it('queues the sandbox job of a test handoff at the simulated latency', () => {
    const [job, ...rest] = plannedJobs('test');
    expect(rest).toEqual([]);
    expect(job).toEqual({
      id: handoffJobId('prun_kernel', 'screen_destination', 1),
      run_id: 'prun_kernel',
      account: 'acct_kernel',
      environment: 'test',
      party: 'chain_analytics',
      step: 'screen_destination',
      attempt: 1,
      idempotency_key: partnerIdempotencyKey('prun_kernel', 'screen_destination', 1),
      request: {
        run_id: 'prun_kernel',
        step: 'screen_destination',
        party: 'chain_analytics',
        action: 'wallet.screen',
        data: { address: WALLET_INPUTS.destination_wallet_address, network: 'base' },
        idempotency_key: partnerIdempotencyKey('prun_kernel', 'screen_destination', 1),
        environment: 'test',
        account: 'acct_kernel',
      },
      deadline: '2026-03-02T09:10:00.000Z', // the step's timeout, PT10M
      status: 'queued',
      calls: 0,
      // the chain analytics party's simulation latency, PT20S
      next_attempt_at: '2026-03-02T09:00:20.000Z',
      lease_owner: null,
      lease_until: null,
      last_error: null,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    expect(job!.id).toMatch(/^hjob_[0-9a-f]+$/);
  });

  it('queues a live job only for a party with a connector, due at once', () => {
    expect(plannedJobs('live')).toEqual([]);
    expect(plannedJobs('live', ['custodian'])).toEqual([]);
    const [job] = plannedJobs('live', ['chain_analytics']);
    expect(job).toMatchObject({ environment: 'live', next_attempt_at: NOW.toISOString() });
  });

  it('is deterministic', () => {
    expect(plannedJobs('test')).toEqual(plannedJobs('test'));
  });
});
