// POST /v1/program-runs through the node:http adapter (memory store) against a bare
// node:http handler returning a run record of the same size, same load generator, in
// the same run. Each server runs in its own process; autocannon runs here, bounded in time.
// Usage: pnpm --filter @programrun/bench bench:http  [ROUNDS=3 SECONDS=8 CONNECTIONS=16 SCENARIO=…]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadCompiled } from './scenario.js';
import { BENCH_KEY } from './servers/bench-key.js';
import { format, median } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const seconds = Number(process.env.SECONDS ?? 8);
const connections = Number(process.env.CONNECTIONS ?? 16);
const scenarioId = process.env.SCENARIO ?? 'qr-merchant-settlement@v1';
const compiled = await loadCompiled(scenarioId);
const requestBody = JSON.stringify({
  scenario_id: compiled.id,
  session_id: 'sess_bench',
  inputs: compiled.definition.example_inputs,
});

async function startServer(
  script: string,
  env: Record<string, string> = {},
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(`./servers/${script}`, import.meta.url))],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /ready (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${String(code)}`)));
  });
  return { port, child };
}

async function peakRssMiB(child: ChildProcess): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function load(
  port: number,
): Promise<{ requestsPerSecond: number; p50: number; p99: number; non2xx: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/v1/program-runs',
        headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
        body: requestBody,
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'idempotency-key': randomUUID() },
        }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

// The bare server answers with a real run record of the same scenario.
const programrun = await startServer('programrun-server.ts', { SCENARIO: scenarioId });
const sample = await fetch(`http://127.0.0.1:${programrun.port}/v1/program-runs`, {
  method: 'POST',
  headers: {
    authorization: `Bearer ${BENCH_KEY}`,
    'content-type': 'application/json',
    'idempotency-key': randomUUID(),
  },
  body: requestBody,
});
if (sample.status !== 201)
  throw new Error(`create failed: ${sample.status} ${await sample.text()}`);
const recordFile = join(mkdtempSync(join(tmpdir(), 'programrun-bench-')), 'run.json');
const sampleBody = await sample.text();
writeFileSync(recordFile, sampleBody);
const bare = await startServer('bare-server.ts', { BODY_FILE: recordFile });

const adapter: Awaited<ReturnType<typeof load>>[] = [];
const baseline: Awaited<ReturnType<typeof load>>[] = [];
try {
  await load(bare.port); // warm-up
  await load(programrun.port);
  for (let round = 0; round < rounds; round += 1) {
    baseline.push(await load(bare.port));
    adapter.push(await load(programrun.port));
  }
  const adapterMedian = median(adapter.map((item) => item.requestsPerSecond));
  const bareMedian = median(baseline.map((item) => item.requestsPerSecond));
  console.log(
    `POST /v1/program-runs (${scenarioId}), ${connections} connections, ${rounds} rounds of ${seconds}s, body ${sampleBody.length} bytes`,
  );
  console.log(
    `  bare node:http      median ${format(bareMedian)} req/s  p50 ${median(baseline.map((item) => item.p50))} ms  p99 ${median(baseline.map((item) => item.p99))} ms  (rounds: ${baseline.map((item) => format(item.requestsPerSecond)).join(', ')})`,
  );
  console.log(
    `  programrun adapter  median ${format(adapterMedian)} req/s  p50 ${median(adapter.map((item) => item.p50))} ms  p99 ${median(adapter.map((item) => item.p99))} ms  (rounds: ${adapter.map((item) => format(item.requestsPerSecond)).join(', ')})`,
  );
  console.log(
    `  adapter / bare      ${format((adapterMedian / bareMedian) * 100, 1)} %  (target ≥ 25 %)`,
  );
  console.log(
    `  non-2xx: adapter ${adapter.reduce((sum, item) => sum + item.non2xx, 0)}, bare ${baseline.reduce((sum, item) => sum + item.non2xx, 0)}`,
  );
  console.log(
    `  peak RSS: programrun server ${await peakRssMiB(programrun.child)} MiB, bare server ${await peakRssMiB(bare.child)} MiB`,
  );
} finally {
  programrun.child.kill();
  bare.child.kill();
}
