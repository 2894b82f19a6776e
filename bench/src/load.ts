// What the HTTP benchmarks share: starting a server process and loading it with autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BENCH_KEY, createRunHeaders } from './servers/bench-key.js';

/** A benchmark server running in its own process on 127.0.0.1. */
export interface ServerProcess {
  readonly port: number;
  readonly child: ChildProcess;
}

/** Starts `src/servers/<script>` with extra environment; resolves once it prints `ready <port>`. */
export async function startServer(
  script: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(`./servers/${script}`, import.meta.url))],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
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

/** Peak resident set size of a child process, in MiB (Linux). */
export async function peakRssMiB(child: ChildProcess): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** One load run's results. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
}

/** POSTs `body` to /v1/program-runs with a fresh Idempotency-Key per request, for `seconds`. */
export async function loadCreate(
  port: number,
  body: string,
  options: { readonly seconds: number; readonly connections: number },
): Promise<LoadResult> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        method: 'POST',
        path: '/v1/program-runs',
        headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
        body,
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

/** Creates one run through a programrun server and returns the response body text. */
export async function sampleRun(port: number, body: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/program-runs`, {
    method: 'POST',
    headers: createRunHeaders(randomUUID()),
    body,
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${text}`);
  return text;
}
