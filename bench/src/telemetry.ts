// Create-run throughput with telemetry off, with the OpenTelemetry API and no SDK (the
// default), and with an SDK registered (in-memory exporters), same run, memory store:
// in process (engine.createRun in a loop) and over HTTP (node:http + createHandler in its
// own process per setting, autocannon here). Rounds rotate the order of the settings;
// the script prints medians and each setting's cost against `off` (targets: ≤ 3 % with no
// SDK, ≤ 15 % with an exporter).
// Usage: pnpm --filter @programrun/bench bench:telemetry
//   [ROUNDS=5 CREATES=3000 SECONDS=5 CONNECTIONS=16 SIDES=process,http]
import { createEngine, createMemoryStore, type Scope } from '@programrun/engine';
import { loadCompiled } from './scenario.js';
import { loadCreate, startServer, type ServerProcess } from './load.js';
import { registerSdk, type TelemetrySetting } from './telemetry-sdk.js';
import { format, median } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 5);
const creates = Number(process.env.CREATES ?? 3000);
const seconds = Number(process.env.SECONDS ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 16);
const sides = (process.env.SIDES ?? 'process,http').split(',');
const SETTINGS: readonly TelemetrySetting[] = ['off', 'api', 'sdk'];
const TARGET: Record<TelemetrySetting, string> = { off: '', api: '≤ 3 %', sdk: '≤ 15 %' };

const compiled = await loadCompiled('wallet-delivery@v1');
const inputs = compiled.definition.example_inputs;
const started = performance.now();
const progress = (message: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`);

/** Creates/s of `creates` sequential engine.createRun calls on a fresh engine and store. */
async function inProcess(setting: TelemetrySetting): Promise<number> {
  const sdk = setting === 'sdk' ? registerSdk() : undefined;
  try {
    const engine = createEngine({
      store: createMemoryStore(),
      scenarios: [compiled],
      ...(setting === 'off' ? { telemetry: false as const } : {}),
    });
    const scope: Scope = { account: 'acct_bench', environment: 'test' };
    const create = (index: number) =>
      engine.createRun(scope, {
        scenario_id: compiled.id,
        inputs,
        idempotency_key: `k${index}`,
      });
    for (let index = 0; index < 200; index += 1) await create(-index - 1); // warm-up
    const begin = performance.now();
    for (let index = 0; index < creates; index += 1) await create(index);
    const rate = creates / ((performance.now() - begin) / 1000);
    if (sdk && (await sdk.spans()) < creates) throw new Error('the SDK exported too few spans');
    return rate;
  } finally {
    await sdk?.shutdown();
  }
}

const requestBody = JSON.stringify({ scenario_id: compiled.id, inputs });

/** Stops a telemetry server, returning the spans its SDK exported. */
async function stop(server: ServerProcess): Promise<number> {
  const spans = new Promise<number>((resolve) => {
    server.child.stdout?.on('data', (chunk: Buffer) => {
      const match = /spans (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    server.child.once('exit', () => resolve(-1));
  });
  server.child.kill('SIGTERM');
  return spans;
}

const results: Record<string, Record<TelemetrySetting, number[]>> = {};
for (const side of sides) {
  results[side] = { off: [], api: [], sdk: [] };
  const servers = new Map<TelemetrySetting, ServerProcess>();
  if (side === 'http') {
    for (const setting of SETTINGS)
      servers.set(setting, await startServer('telemetry-server.ts', { TELEMETRY: setting }));
    for (const server of servers.values())
      await loadCreate(server.port, requestBody, { seconds: 2, connections });
  }
  for (let round = 0; round < rounds; round += 1) {
    const order = SETTINGS.map((_, index) => SETTINGS[(index + round) % SETTINGS.length]!);
    const line: string[] = [];
    for (const setting of order) {
      let rate: number;
      if (side === 'process') rate = await inProcess(setting);
      else {
        const result = await loadCreate(servers.get(setting)!.port, requestBody, {
          seconds,
          connections,
        });
        if (result.non2xx > 0) throw new Error(`${setting}: ${result.non2xx} answers not 2xx`);
        rate = result.requestsPerSecond;
      }
      results[side][setting].push(rate);
      line.push(`${setting} ${format(rate, 0)}/s`);
    }
    progress(`${side}, round ${round + 1}: ${line.join(', ')}`);
  }
  if (side === 'http') {
    const spans = await stop(servers.get('sdk')!);
    await Promise.all([stop(servers.get('off')!), stop(servers.get('api')!)]);
    progress(`http: the SDK server exported ${spans} spans`);
  }
}

console.log(
  `\nCreate-run throughput, memory store (medians of ${rounds} rounds; cost = 1 - setting/off):`,
);
for (const side of sides) {
  const rates = results[side]!;
  const off = median(rates.off);
  const cells = SETTINGS.map((setting) => {
    const value = median(rates[setting]);
    const perRound = rates[setting].map(
      (rate, index) => `${format((1 - rate / rates.off[index]!) * 100, 1)} %`,
    );
    return setting === 'off'
      ? `off ${format(value, 0)}/s`
      : `${setting} ${format(value, 0)}/s (cost ${format((1 - value / off) * 100, 1)} %, per round ${perRound.join(', ')}; target ${TARGET[setting]})`;
  });
  console.log(`${side === 'process' ? 'in process' : 'over HTTP '}: ${cells.join('; ')}`);
}
