import { context, diag, DiagLogLevel, metrics, propagation, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { UsageError } from '../usage-error.js';

/** The OTLP protocols the installed exporters speak. */
const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;

/** An OTLP protocol of {@link PROTOCOLS}. */
export type OtlpProtocol = (typeof PROTOCOLS)[number];

/** Where one signal (traces or metrics) is exported. */
export interface SignalExport {
  readonly endpoint: string;
  readonly protocol: OtlpProtocol;
}

/** What the reference server exports, read from the standard OTEL_* variables. */
export interface TelemetryExportSettings {
  /** OTEL_SERVICE_NAME, default `programrun`. */
  readonly serviceName: string;
  /** Null when no traces endpoint is set (or OTEL_TRACES_EXPORTER=none). */
  readonly traces: SignalExport | null;
  /** Null when no metrics endpoint is set (or OTEL_METRICS_EXPORTER=none). */
  readonly metrics: SignalExport | null;
  /** OTEL_METRIC_EXPORT_INTERVAL (ms), default 60000. */
  readonly metricIntervalMs: number;
}

type Environment = Readonly<Record<string, string | undefined>>;

const variable = (environment: Environment, name: string): string | undefined =>
  environment[name]?.trim() || undefined;

function protocolOf(environment: Environment, signal: 'TRACES' | 'METRICS'): OtlpProtocol {
  const name = variable(environment, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = variable(environment, name) ?? 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(value))
    throw new UsageError(`${name} must be one of ${PROTOCOLS.join(', ')}, not "${value}"`);
  return value as OtlpProtocol;
}

function checkedUrl(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // Reported below.
  }
  throw new UsageError(`${name} must be an http:// or https:// URL, not "${value}"`);
}

/** One signal's endpoint: its own variable as is, else the base endpoint (plus `/v1/<signal>` over HTTP). */
function signalExport(environment: Environment, signal: 'TRACES' | 'METRICS'): SignalExport | null {
  const exporters = variable(environment, `OTEL_${signal}_EXPORTER`);
  if (exporters !== undefined && exporters.split(',').every((name) => name.trim() === 'none'))
    return null;
  const own = variable(environment, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`);
  const base = variable(environment, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (own === undefined && base === undefined) return null;
  const protocol = protocolOf(environment, signal);
  if (own !== undefined)
    return { endpoint: checkedUrl(`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`, own), protocol };
  const root = checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base!);
  const endpoint =
    protocol === 'grpc' ? root : `${root.replace(/\/+$/, '')}/v1/${signal.toLowerCase()}`;
  return { endpoint, protocol };
}

/**
 * What to export, from the standard variables: OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_METRICS_ENDPOINT for one signal),
 * OTEL_EXPORTER_OTLP_PROTOCOL (`http/protobuf` by default, `http/json` or `grpc`; per signal
 * with OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / _METRICS_PROTOCOL), OTEL_SERVICE_NAME and
 * OTEL_METRIC_EXPORT_INTERVAL. Null when no endpoint is set, or with OTEL_SDK_DISABLED=true:
 * nothing is exported. A value that cannot work is a usage error.
 */
export function telemetryExportSettings(environment: Environment): TelemetryExportSettings | null {
  if (variable(environment, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return null;
  const traces = signalExport(environment, 'TRACES');
  const metricsExport = signalExport(environment, 'METRICS');
  if (traces === null && metricsExport === null) return null;
  const interval = variable(environment, 'OTEL_METRIC_EXPORT_INTERVAL');
  if (interval !== undefined && !/^[1-9]\d{0,8}$/.test(interval))
    throw new UsageError(
      `OTEL_METRIC_EXPORT_INTERVAL must be a whole number of milliseconds from 1, not "${interval}"`,
    );
  return {
    serviceName: variable(environment, 'OTEL_SERVICE_NAME') ?? 'programrun',
    traces,
    metrics: metricsExport,
    metricIntervalMs: interval === undefined ? 60_000 : Number(interval),
  };
}

/** A running export; `shutdown` flushes what is buffered and unregisters the SDK. */
export interface TelemetryExport {
  shutdown(): Promise<void>;
}

/** How long the final flush may take when the server stops. */
const FLUSH_TIMEOUT_MS = 5_000;

/** Sends the SDK's own problems (an unreachable collector) to the server's log, as warnings. */
function diagToLog(logger: Logger): void {
  const at =
    (level: 'warn' | 'info' | 'debug') =>
    (message: string, ...args: unknown[]) =>
      logger[level]({ component: 'opentelemetry', args }, message);
  diag.setLogger(
    {
      error: at('warn'),
      warn: at('warn'),
      info: at('info'),
      debug: at('debug'),
      verbose: at('debug'),
    },
    DiagLogLevel.WARN,
  );
}

/**
 * Starts `@opentelemetry/sdk-node` for the reference server (before its engine and handler
 * exist, so they find its tracer and meter providers): OTLP traces and metrics as `settings`
 * say, service name, no auto-instrumentation. The exporters read the standard OTEL_*
 * variables of this process (endpoint, protocol, headers, timeout, export interval).
 */
export async function startTelemetryExport(
  settings: TelemetryExportSettings,
  logger: Logger,
): Promise<TelemetryExport> {
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  if (process.env.OTEL_LOG_LEVEL === undefined) diagToLog(logger);
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    instrumentations: [],
    // Logs go to the server's own log lines, not over OTLP.
    logRecordProcessors: [],
    // Absent: from the OTEL_* variables; empty: that signal is not exported.
    ...(settings.traces === null ? { spanProcessors: [] } : {}),
    ...(settings.metrics === null ? { metricReaders: [] } : {}),
  });
  sdk.start();
  return {
    async shutdown() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flushed = await Promise.race([
        sdk.shutdown().then(
          () => true,
          (error: unknown) => {
            logger.warn({ err: error }, 'telemetry flush failed');
            return true;
          },
        ),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), FLUSH_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!flushed) logger.warn(`telemetry not flushed within ${FLUSH_TIMEOUT_MS} ms`);
      // Unregistered, so a later server in this process can register its own.
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}
