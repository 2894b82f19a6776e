// OpenTelemetry SDK pieces for the engine's telemetry tests: a tracer provider with an
// in-memory exporter, a meter provider with an in-memory metric exporter, and the
// AsyncLocalStorage context manager so the active span follows awaits.
import { context, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll } from 'vitest';

/** Registers the AsyncLocalStorage context manager for the file's tests. */
export function useContextManager(): void {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => {
    manager.disable();
    context.disable();
  });
}

/** A tracer provider that keeps every ended span. */
export function tracing() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return {
    tracerProvider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** The ended spans called `name`, in the order they ended. */
    named: (name: string): ReadableSpan[] =>
      exporter.getFinishedSpans().filter((span) => span.name === name),
    reset: () => exporter.reset(),
  };
}

/** A meter provider whose metrics are read on demand. */
export function metering() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  /** The data points of metric `name` as last collected. */
  async function points(name: string): Promise<DataPoint<unknown>[]> {
    exporter.reset();
    await reader.forceFlush();
    const metric = exporter
      .getMetrics()
      .at(-1)
      ?.scopeMetrics.flatMap((scope) => scope.metrics)
      .find((candidate) => candidate.descriptor.name === name);
    return metric?.dataPoints ?? [];
  }
  return {
    meterProvider,
    points,
    /** Counter totals of `name`, one per attribute set. */
    async sums(name: string): Promise<{ attributes: Attributes; value: number }[]> {
      return (await points(name)).map((point) => ({
        attributes: point.attributes,
        value: point.value as number,
      }));
    },
    /** Histogram counts and sums of `name`, one per attribute set. */
    async histograms(
      name: string,
    ): Promise<{ attributes: Attributes; count: number; sum: number; min: number }[]> {
      return (await points(name)).map((point) => {
        const value = point.value as Histogram;
        return {
          attributes: point.attributes,
          count: value.count,
          sum: value.sum ?? 0,
          min: value.min ?? 0,
        };
      });
    },
    shutdown: () => meterProvider.shutdown(),
  };
}
