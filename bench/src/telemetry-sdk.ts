// The three telemetry settings the telemetry benchmark compares, shared by the in-process
// side and the HTTP server process: `off` (createEngine/createHandler with telemetry:
// false, no telemetry code paths), `api` (the default: the global OpenTelemetry API with no
// SDK registered) and `sdk` (an SDK registered globally as NodeSDK would: async-hooks
// context manager, a tracer provider batching spans into an in-memory exporter, a meter
// provider with a periodic in-memory reader).
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
} from '@opentelemetry/sdk-trace-base';

export type TelemetrySetting = 'off' | 'api' | 'sdk';

/** What a registered SDK exported so far, and how to unregister it. */
export interface RegisteredSdk {
  /** Spans exported (the exporter is emptied as it goes, so memory stays flat). */
  spans(): Promise<number>;
  shutdown(): Promise<void>;
}

/** Registers an SDK globally, as `NodeSDK.start()` does (no auto-instrumentation). */
export function registerSdk(): RegisteredSdk {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    // A queue large enough that no span is dropped: an in-process loop on the memory store
    // never yields to the export timer, and dropped spans would understate the cost.
    spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 1_000_000 })],
  });
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 1_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  let exported = 0;
  const drain = async () => {
    await tracerProvider.forceFlush();
    exported += exporter.getFinishedSpans().length;
    exporter.reset();
  };
  const timer = setInterval(() => void drain(), 250);
  return {
    async spans() {
      await drain();
      return exported;
    },
    async shutdown() {
      clearInterval(timer);
      await drain();
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
      context.disable();
      contextManager.disable();
    },
  };
}
