import {
  createAccounts,
  createEngine,
  createMemoryStore,
  createVirtualClock,
  type Accounts,
  type Engine,
  type Scope,
} from '@programrun/engine';
import { createKeySet, generateEd25519Jwk, type EvidenceKeySet } from '@programrun/evidence';
import { loadCompiled } from './scenario.js';

/** An engine (and its accounts) with signing keys and one completed run of `scenarioId`, its evidence exportable. */
export async function completedRun(scenarioId: string): Promise<{
  engine: Engine;
  accounts: Accounts;
  scope: Scope;
  runId: string;
  keys: EvidenceKeySet;
}> {
  const compiled = await loadCompiled(scenarioId);
  const keys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
  const store = createMemoryStore();
  const engine = createEngine({
    store,
    scenarios: [compiled],
    testClock: createVirtualClock(),
    evidence: { keys },
  });
  const scope: Scope = { account: 'acct_bench', environment: 'test' };
  const { run } = await engine.createRun(scope, {
    scenario_id: compiled.id,
    session_id: 'sess_bench',
    inputs: compiled.definition.example_inputs,
  });
  for (let round = 0; round < 200; round += 1) {
    const current = await engine.getRun(scope, run.id);
    if (current.status !== 'waiting') break;
    if (current.awaiting?.kind === 'approval') {
      await engine.signal(scope, run.id, {
        kind: 'approval',
        step: current.awaiting.step,
        decision: 'approve',
        approver: `approver_${round}`,
      });
    } else {
      const due = await engine.nextTimerDue(scope);
      await engine.advanceTestClock(
        scope.account,
        Math.max(1, (new Date(due!).getTime() - (await engine.now(scope)).getTime()) / 1000),
      );
    }
  }
  const finished = await engine.getRun(scope, run.id);
  if (finished.status !== 'completed') throw new Error(`${scenarioId} ended ${finished.status}`);
  await engine.createAccessRequest(scope, {
    session_id: 'sess_bench',
    name: 'Bench',
    email: 'bench@example.com',
    company: 'Bench',
    use_case: 'Benchmark',
  });
  return { engine, accounts: createAccounts({ store }), scope, runId: run.id, keys };
}
