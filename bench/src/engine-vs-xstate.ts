// Drives qr-merchant-settlement@v1 to completion through the engine (memory store, test
// environment: persistence, hash chains, policy, posture, timers) and through a raw XState
// actor of the same compiled machine with the same events, in the same process.
// Usage: pnpm --filter @programrun/bench bench:engine  [ROUNDS=7 RUNS=300]
import { createActor } from 'xstate';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  type Signal,
} from '@programrun/engine';
import { happyPathEvents, loadCompiled } from './scenario.js';
import { format, median, peakRssMiB } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 7);
const runsPerRound = Number(process.env.RUNS ?? 300);
const compiled = await loadCompiled('qr-merchant-settlement@v1');
const events = happyPathEvents(compiled);
const inputs = compiled.definition.example_inputs;
const scope = { account: 'acct_bench', environment: 'test' } as const;

function rawXState(): void {
  const actor = createActor(compiled.machine, { input: { environment: 'test', inputs } });
  actor.start();
  for (const event of events) actor.send(event);
  const snapshot = actor.getSnapshot();
  if (snapshot.value !== 'completed')
    throw new Error(`raw actor ended in ${JSON.stringify(snapshot.value)}`);
  actor.stop();
}

const signals: Signal[] = events.map((event) => {
  if (event.type === 'handoff.outcome') {
    return {
      kind: 'handoff',
      step: event.step,
      outcome: event.outcome,
      reference: event.reference,
      data: event.data,
    };
  }
  if (event.type === 'approval.decision') {
    return {
      kind: 'approval',
      step: event.step,
      decision: event.decision,
      approver: event.approver,
    };
  }
  throw new Error(`no signal for ${event.type}`);
});

// Simulated partners never answer on their own here: the benchmark sends their answers.
// Each round gets a fresh memory store, so retained runs from earlier rounds do not
// inflate garbage collection (the raw actor retains nothing).
const newEngine = () =>
  createEngine({
    store: createMemoryStore(),
    scenarios: [compiled],
    testClock: createVirtualClock(),
    sandbox: { responseDelayMs: 365 * 24 * 3600 * 1000 },
  });
let engine = newEngine();

async function throughEngine(): Promise<void> {
  const { run } = await engine.createRun(scope, { scenario_id: compiled.id, inputs });
  let last = run;
  for (const signal of signals) last = (await engine.signal(scope, run.id, signal)).run;
  if (last.status !== 'completed') throw new Error(`engine run ended ${last.status}`);
}

async function measure(work: () => void | Promise<void>): Promise<number> {
  const start = performance.now();
  for (let index = 0; index < runsPerRound; index += 1) await work();
  return runsPerRound / ((performance.now() - start) / 1000);
}

// Warm up both paths, then alternate rounds so drift hits both equally.
await measure(rawXState);
await measure(throughEngine);
const raw: number[] = [];
const engineRates: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  raw.push(await measure(rawXState));
  engine = newEngine();
  engineRates.push(await measure(throughEngine));
}
const rawMedian = median(raw);
const engineMedian = median(engineRates);
console.log(
  `qr-merchant-settlement@v1 to completion: ${events.length} events, ${rounds} rounds of ${runsPerRound} runs (fresh memory store per round)`,
);
console.log(
  `  raw XState actor      median ${format(rawMedian)} runs/s  (rounds: ${raw.map((rate) => format(rate)).join(', ')})`,
);
console.log(
  `  engine, memory store  median ${format(engineMedian)} runs/s  (rounds: ${engineRates.map((rate) => format(rate)).join(', ')})`,
);
console.log(
  `  engine / raw          ${format((engineMedian / rawMedian) * 100, 1)} %  (target ≥ 50 %)`,
);
console.log(
  `  engine median per run ${format(1000 / engineMedian, 2)} ms; per event ${format(1000 / engineMedian / (events.length + 1), 3)} ms`,
);
console.log(`  peak RSS ${peakRssMiB()} MiB`);
