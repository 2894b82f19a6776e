// What a create or a signal answers is what `getRun` reads back right after: the awaited
// handoff's job a transition just queued is answered without being read again, and must
// be the job the store holds.
import { describe, expect, it } from 'vitest';
import { partnerIdempotencyKey, type Engine, type Scope, type Signal } from '../../src/index.js';
import { memoryEngine } from '../memory-engine.js';
import { catalogueScenarios, WALLET_INPUTS } from '../scenarios.js';

const scenarios = await catalogueScenarios();

/** A wallet delivery's signals, from its screening to its transfer. */
const walletSignals = (runId: string): Signal[] => {
  const answer = (step: string, data = {}): Signal => ({
    kind: 'handoff',
    step,
    outcome: 'confirmed',
    reference: `ref_${step}`,
    data,
    idempotency_key: partnerIdempotencyKey(runId, step, 1),
  });
  return [
    answer('screen_destination', { risk: 'low' }),
    { kind: 'approval', step: 'release_approval', decision: 'approve', approver: 'ops:alice' },
    answer('transfer_to_wallet'),
  ];
};

async function expectReadBack(engine: Engine, scope: Scope): Promise<number> {
  const created = await engine.createRun(scope, {
    scenario_id: 'wallet-delivery@v1',
    inputs: WALLET_INPUTS,
  });
  expect(created.run).toEqual(await engine.getRun(scope, created.run.id));
  let withJob = created.run.awaiting?.handoff_job ? 1 : 0;
  for (const signal of walletSignals(created.run.id)) {
    const { run } = await engine.signal(scope, created.run.id, signal);
    expect(run, signal.kind === 'cancel' ? 'cancel' : signal.step).toEqual(
      await engine.getRun(scope, created.run.id),
    );
    if (run.awaiting?.handoff_job) withJob += 1;
  }
  expect((await engine.getRun(scope, created.run.id)).status).toBe('completed');
  return withJob;
}

describe('a transition answers the run as it reads back', () => {
  it('in test, where every handoff is a sandbox job', async () => {
    const engine = memoryEngine(scenarios, 'read-back-test');
    // Both handoffs awaited with their queued job: screening at creation, then the transfer.
    expect(await expectReadBack(engine, { account: 'acct_read_back', environment: 'test' })).toBe(
      2,
    );
  });

  it('in live, with connectors for both parties', async () => {
    const never = () => new Promise<never>(() => undefined);
    const engine = memoryEngine(scenarios, 'read-back-live', {
      connectors: { chain_analytics: { connector: never }, custodian: { connector: never } },
    });
    expect(await expectReadBack(engine, { account: 'acct_read_back', environment: 'live' })).toBe(
      2,
    );
  });

  it('in live, with no connector (no job to show)', async () => {
    const engine = memoryEngine(scenarios, 'read-back-none');
    expect(await expectReadBack(engine, { account: 'acct_read_back', environment: 'live' })).toBe(
      0,
    );
  });
});
