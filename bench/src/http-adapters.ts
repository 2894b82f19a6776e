// POST /v1/program-runs through each adapter (node:http, Express, Fastify, Hono) over the
// engine with the memory store, against the same framework answering a static run record
// of the same size on the same route (parsing the JSON body and checking the key too).
// Every server runs in its own process on 127.0.0.1; autocannon runs here, bounded in
// time; rounds alternate static and programrun, and medians and ratios come from one run.
// Usage: pnpm --filter @programrun/bench bench:http
//   [ADAPTERS=node,express,fastify,hono ROUNDS=3 SECONDS=5 CONNECTIONS=16 SCENARIO=wallet-delivery@v1]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccounts, createEngine, createMemoryStore } from '@programrun/engine';
import { createHandler } from '@programrun/http';
import { loadCreate, peakRssMiB, sampleRun, startServer, type LoadResult } from './load.js';
import { loadCompiled } from './scenario.js';
import { BENCH_KEY, createRunHeaders } from './servers/bench-key.js';
import { format, median } from './stats.js';

const adapters = (process.env.ADAPTERS ?? 'node,express,fastify,hono').split(',');
const rounds = Number(process.env.ROUNDS ?? 3);
const seconds = Number(process.env.SECONDS ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 16);
const scenarioId = process.env.SCENARIO ?? 'wallet-delivery@v1';
const TARGETS: Record<string, string> = { node: '≥ 25 %', fastify: '≥ 25 %' };

const compiled = await loadCompiled(scenarioId);
const requestBody = JSON.stringify({
  scenario_id: compiled.id,
  session_id: 'sess_bench',
  inputs: compiled.definition.example_inputs,
});
const load = (port: number) => loadCreate(port, requestBody, { seconds, connections });
const medianOf = (results: readonly LoadResult[], pick: (result: LoadResult) => number) =>
  median(results.map(pick));

interface AdapterFigures {
  readonly adapter: string;
  readonly staticRps: number;
  readonly programrunRps: number;
  readonly p50: [number, number];
  readonly rss: [number, number];
  readonly non2xx: number;
  readonly rounds: string;
}

async function measure(adapter: string, recordFile: string): Promise<AdapterFigures> {
  const programrun = await startServer('adapter-server.ts', {
    ADAPTER: adapter,
    MODE: 'programrun',
    SCENARIO: scenarioId,
  });
  const fixed = await startServer('adapter-server.ts', {
    ADAPTER: adapter,
    MODE: 'static',
    BODY_FILE: recordFile,
  });
  try {
    await load(fixed.port); // warm-up
    await load(programrun.port);
    const baseline: LoadResult[] = [];
    const ours: LoadResult[] = [];
    for (let round = 0; round < rounds; round += 1) {
      baseline.push(await load(fixed.port));
      ours.push(await load(programrun.port));
    }
    return {
      adapter,
      staticRps: medianOf(baseline, (result) => result.requestsPerSecond),
      programrunRps: medianOf(ours, (result) => result.requestsPerSecond),
      p50: [medianOf(baseline, (result) => result.p50), medianOf(ours, (result) => result.p50)],
      rss: [await peakRssMiB(fixed.child), await peakRssMiB(programrun.child)],
      non2xx: [...baseline, ...ours].reduce((sum, result) => sum + result.non2xx, 0),
      rounds: ours
        .map((result, index) =>
          format((result.requestsPerSecond / baseline[index]!.requestsPerSecond) * 100, 1),
        )
        .join(' / '),
    };
  } finally {
    programrun.child.kill();
    fixed.child.kill();
  }
}

// The static servers answer a real run record of this scenario.
const sampler = await startServer('adapter-server.ts', { ADAPTER: 'node', SCENARIO: scenarioId });
const record = await sampleRun(sampler.port, requestBody).finally(() => sampler.child.kill());
const recordFile = join(mkdtempSync(join(tmpdir(), 'programrun-bench-')), 'run.json');
writeFileSync(recordFile, record);

const figures: AdapterFigures[] = [];
for (const adapter of adapters) figures.push(await measure(adapter, recordFile));

/** Creates per second for `seconds`, one at a time, in this process (no sockets). */
async function inProcess(create: (index: number) => Promise<unknown>): Promise<number> {
  let created = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) await create((created += 1));
  return created / seconds;
}

/** engine.createRun alone: the ceiling of any adapter. */
function engineOnly(): Promise<number> {
  const engine = createEngine({ store: createMemoryStore(), scenarios: [compiled] });
  const scope = { account: 'acct_bench', environment: 'test' } as const;
  return inProcess((index) =>
    engine.createRun(scope, {
      scenario_id: compiled.id,
      session_id: 'sess_bench',
      inputs: compiled.definition.example_inputs,
      idempotency_key: `bench-${index}`,
    }),
  );
}

/** handler.handle with a fetch Request: the HTTP surface without sockets or an adapter. */
async function handlerOnly(): Promise<number> {
  const store = createMemoryStore();
  const engine = createEngine({ store, scenarios: [compiled] });
  const accounts = createAccounts({ store });
  await accounts.apiKeys.create({ account: 'acct_bench', environment: 'test', secret: BENCH_KEY });
  const handler = createHandler({ engine, accounts, rateLimit: false });
  return inProcess(async (index) => {
    const response = await handler.handle(
      new Request('http://localhost/v1/program-runs', {
        method: 'POST',
        headers: createRunHeaders(`bench-${index}`),
        body: requestBody,
      }),
    );
    if (response.status !== 201) throw new Error(`handle answered ${response.status}`);
  });
}

await engineOnly(); // warm-up
await handlerOnly();
const engineRates: number[] = [];
const handlerRates: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  engineRates.push(await engineOnly());
  handlerRates.push(await handlerOnly());
}
const engineRate = median(engineRates);
const handlerRate = median(handlerRates);

console.log(
  `POST /v1/program-runs (${scenarioId}, response ${record.length} bytes), ${connections} connections, ${rounds} rounds of ${seconds} s per server, memory store`,
);
console.log(
  '| adapter | static req/s | programrun req/s | ratio (median) | ratio per round | p50 static / programrun | peak RSS static / programrun | target |',
);
console.log('| --- | ---: | ---: | ---: | --- | --- | --- | --- |');
for (const item of figures) {
  console.log(
    `| ${item.adapter} | ${format(item.staticRps)} | ${format(item.programrunRps)} | ${format((item.programrunRps / item.staticRps) * 100, 1)} % | ${item.rounds} % | ${item.p50[0]} / ${item.p50[1]} ms | ${item.rss[0]} / ${item.rss[1]} MiB | ${TARGETS[item.adapter] ?? 'report'} |`,
  );
}
console.log(
  `In this process, one at a time: engine.createRun alone median ${format(engineRate)} creates/s (${format(1e6 / engineRate)} µs); handler.handle(Request) median ${format(handlerRate)} creates/s (${format(1e6 / handlerRate)} µs, ${format((handlerRate / engineRate) * 100, 0)} % of the engine).`,
);
console.log(
  `Over sockets each adapter delivers ${figures.map((item) => `${item.adapter} ${format((item.programrunRps / engineRate) * 100, 0)} %`).join(', ')} of engine.createRun alone.`,
);
const failures = figures.reduce((sum, item) => sum + item.non2xx, 0);
if (failures > 0) console.log(`non-2xx answers: ${failures} (the figures above are not valid)`);
