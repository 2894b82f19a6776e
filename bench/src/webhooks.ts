// Webhook costs. (1) Delivered events/s: the outbox drained by the dispatcher to a loopback
// receiver that verifies every signature with the standardwebhooks package. (2) Run creation
// with and without a registered endpoint (its dispatcher delivering in the background, in
// the same process), alternating rounds in one run; target: webhooks cost ≤ 15 %.
// Usage: pnpm --filter @programrun/bench bench:webhooks  [ROUNDS=3 RUNS=1500 SECONDS=3 CONCURRENCY=16]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEngine, createMemoryStore, type Engine, type Scope } from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import { loadCompiled } from './scenario.js';
import { format, median, peakRssMiB } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const runs = Number(process.env.RUNS ?? 1500);
const seconds = Number(process.env.SECONDS ?? 3);
const concurrency = Number(process.env.CONCURRENCY ?? 16);

const compiled = await loadCompiled('wallet-delivery@v1');
const inputs = compiled.definition.example_inputs;

// The receiver runs in its own process (so its signature checks do not share this event
// loop) and verifies each delivery against the secrets it was sent.
const receiver = fork(fileURLToPath(new URL('./servers/webhook-receiver.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx'],
});
process.on('exit', () => receiver.kill());
const port = await new Promise<number>((resolve) =>
  receiver.once('message', (message: { port: number }) => resolve(message.port)),
);
const url = `http://127.0.0.1:${port}/hooks`;
const counts = () =>
  new Promise<{ verified: number; refused: number }>((resolve) => {
    receiver.once('message', resolve);
    receiver.send({ report: true });
  });

function newEngine(): Engine {
  return createEngine({
    store: createMemoryStore(),
    scenarios: [compiled],
    webhooks: { allowLoopback: true },
  });
}

async function registerEndpoint(engine: Engine, scope: Scope): Promise<void> {
  const endpoint = await engine.webhooks.createEndpoint(scope, { url });
  receiver.send({ secret: endpoint.secret });
}

async function createRuns(engine: Engine, scope: Scope, count: number, prefix: string) {
  for (let index = 0; index < count; index += 1) {
    await engine.createRun(scope, {
      scenario_id: compiled.id,
      inputs,
      idempotency_key: `${prefix}-${index}`,
    });
  }
}

// (1) Delivered events/s.
const deliveryRates: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const engine = newEngine();
  const scope: Scope = { account: `acct_drain${round}`, environment: 'test' };
  await registerEndpoint(engine, scope);
  await createRuns(engine, scope, runs, 'drain');
  const dispatcher = createWebhookDispatcher(engine, { concurrency });
  const before = (await counts()).verified;
  const started = performance.now();
  const attempts = await dispatcher.drain();
  const elapsed = (performance.now() - started) / 1000;
  await dispatcher.stop();
  const delivered = (await counts()).verified - before;
  if (delivered !== attempts) throw new Error(`${attempts} attempts but ${delivered} verified`);
  deliveryRates.push(delivered / elapsed);
  console.log(
    `round ${round + 1}: ${delivered} events delivered and verified in ${format(elapsed, 2)} s = ${format(delivered / elapsed)} events/s`,
  );
}

// (2) Creation throughput without and with a registered endpoint (dispatcher running).
async function creationRate(withEndpoint: boolean, round: number): Promise<number> {
  const engine = newEngine();
  const scope: Scope = { account: `acct_rate${round}`, environment: 'test' };
  const dispatcher = createWebhookDispatcher(engine, { concurrency });
  if (withEndpoint) {
    await registerEndpoint(engine, scope);
    dispatcher.start();
  }
  await createRuns(engine, scope, 200, 'warm');
  let created = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    await engine.createRun(scope, {
      scenario_id: compiled.id,
      inputs,
      idempotency_key: `rate-${created}`,
    });
    created += 1;
  }
  const rate = created / ((performance.now() - started) / 1000);
  await dispatcher.drain();
  await dispatcher.stop();
  return rate;
}

const without: number[] = [];
const withHooks: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  without.push(await creationRate(false, round));
  withHooks.push(await creationRate(true, round));
  console.log(
    `round ${round + 1}: creation ${format(without.at(-1)!)} runs/s without an endpoint, ${format(withHooks.at(-1)!)} with one (${format((withHooks.at(-1)! / without.at(-1)!) * 100, 1)} %)`,
  );
}
const { refused } = await counts();
receiver.kill();
if (refused > 0) throw new Error(`${refused} deliveries failed verification`);

const ratio = median(withHooks.map((rate, index) => rate / without[index]!));
console.log(`
Delivered events/s (median of ${rounds}): ${format(median(deliveryRates))}  (concurrency ${concurrency}, ${runs} runs each)
Creation runs/s (median): without endpoint ${format(median(without))}, with endpoint ${format(median(withHooks))}
With/without, same rounds: median ${format(ratio * 100, 1)} %  → webhook cost ${format((1 - ratio) * 100, 1)} % (target ≤ 15 %)
Peak RSS ${format(peakRssMiB())} MiB`);
