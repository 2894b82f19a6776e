// `programrun serve` exports traces and metrics over OTLP/HTTP when the standard variables
// say where (here a loopback receiver speaking http/json), and nothing otherwise.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { programrun } from './run-bin.js';
import { killServers, serve } from './serve-process.js';

interface KeyValue {
  readonly key: string;
  readonly value: { readonly stringValue?: string };
}
interface ExportedSpan {
  readonly name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly traceId: string;
}
interface TraceExport {
  readonly resourceSpans: {
    readonly resource: { readonly attributes: KeyValue[] };
    readonly scopeSpans: { readonly spans: ExportedSpan[] }[];
  }[];
}
interface MetricExport {
  readonly resourceMetrics: {
    readonly resource: { readonly attributes: KeyValue[] };
    readonly scopeMetrics: { readonly metrics: { readonly name: string }[] }[];
  }[];
}

/** A loopback OTLP/HTTP receiver that keeps every JSON body it is sent, by path. */
async function otlpReceiver(port = 0) {
  const received: { path: string; body: unknown }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // A protobuf body: kept as text, counted all the same.
      }
      received.push({ path: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    spans: () =>
      received
        .filter((entry) => entry.path === '/v1/traces')
        .flatMap((entry) => (entry.body as TraceExport).resourceSpans),
    metrics: () =>
      received
        .filter((entry) => entry.path === '/v1/metrics')
        .flatMap((entry) => (entry.body as MetricExport).resourceMetrics),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const serviceName = (attributes: KeyValue[]) =>
  attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue;

/** Polls `check` every 100 ms until it holds or `ms` pass; returns whether it held. */
async function eventually(check: () => boolean, ms = 15_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  killServers();
  for (const cleanup of cleanups) await cleanup();
});

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

async function createRun(base: string, key: string): Promise<string> {
  const response = await fetch(`${base}/v1/program-runs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({ scenario_id: 'wallet-delivery@v1', inputs: walletInputs }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('programrun serve and OTLP export', () => {
  it('exports the spans of a run created over HTTP and the engine metrics', async () => {
    const receiver = await otlpReceiver();
    cleanups.push(receiver.close);
    const server = serve(['--port', '0'], {
      PROGRAMRUN_STORE: 'memory',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_SERVICE_NAME: 'programrun-otlp-test',
    });
    const { base, key } = await server.started;
    expect(server.output().stdout).toContain(
      `Telemetry: OTLP traces to ${receiver.url}/v1/traces (http/json), metrics to ${receiver.url}/v1/metrics (http/json, every 500 ms) as service programrun-otlp-test`,
    );
    await createRun(base, key);

    // Metrics arrive on their interval, under the service's name.
    expect(
      await eventually(() =>
        receiver
          .metrics()
          .some((exported) =>
            exported.scopeMetrics.some((scope) =>
              scope.metrics.some((metric) => metric.name === 'programrun.runs.created'),
            ),
          ),
      ),
    ).toBe(true);
    for (const exported of receiver.metrics())
      expect(serviceName(exported.resource.attributes)).toBe('programrun-otlp-test');

    // The create's spans: the HTTP server span and the engine's, in one trace.
    const spans = () =>
      receiver.spans().flatMap((exported) => exported.scopeSpans.flatMap((scope) => scope.spans));
    const created = () => spans().find((span) => span.name === 'programrun.run.create');
    const serverSpan = () =>
      spans().find((span) => span.kind === 2 && span.name === 'POST /v1/program-runs');
    expect(await eventually(() => created() !== undefined && serverSpan() !== undefined)).toBe(
      true,
    );
    expect(created()!.traceId).toBe(serverSpan()!.traceId);
    for (const exported of receiver.spans())
      expect(serviceName(exported.resource.attributes)).toBe('programrun-otlp-test');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output().stderr).toBe('');
  }, 60_000);

  it('exports nothing without an endpoint', async () => {
    // The exporters' default endpoint, when this machine lets the test listen there.
    const fallback = await otlpReceiver(4318).catch(() => null);
    if (fallback) cleanups.push(fallback.close);
    const server = serve(['--port', '0'], {
      PROGRAMRUN_STORE: 'memory',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_SERVICE_NAME: 'programrun-otlp-test',
    });
    const { base, key } = await server.started;
    expect(server.output().stdout).toContain('Telemetry: not exported');
    await createRun(base, key);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    if (fallback) expect(fallback.received).toEqual([]);
  }, 60_000);

  it('refuses an unknown protocol or interval with one line', async () => {
    for (const [variables, line] of [
      [
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift',
        },
        'OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json, grpc, not "thrift"',
      ],
      [
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
          OTEL_METRIC_EXPORT_INTERVAL: 'soon',
        },
        'OTEL_METRIC_EXPORT_INTERVAL must be a whole number of milliseconds from 1, not "soon"',
      ],
      [
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
        'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, not "collector:4318"',
      ],
      [
        { PROGRAMRUN_LOG_LEVEL: 'loud' },
        'PROGRAMRUN_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, not "loud"',
      ],
      [
        { PROGRAMRUN_SHUTDOWN_TIMEOUT_MS: '-1' },
        'PROGRAMRUN_SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 0 to 3600000, not "-1"',
      ],
    ] as const) {
      const result = await programrun(['serve', '--port', '0'], {
        env: { PROGRAMRUN_STORE: 'memory', ...variables },
      });
      expect(result).toEqual({ code: 2, stdout: '', stderr: `programrun serve: ${line}\n` });
    }
  }, 60_000);
});
