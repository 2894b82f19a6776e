// What the handoff and outbox telemetry tests share: an SDK tracer and meter provider with
// in-memory exporters, and readers of their spans and metric points.
import type { Attributes } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** One data point of a metric: its attributes and value (a number, or a histogram's count). */
export interface Point {
  readonly attributes: Attributes;
  readonly value: number;
}

/** In-memory exporters behind a tracer and a meter provider, for `createEngine({ telemetry })`. */
export function sdkHarness() {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spanExporter)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });

  /** Collects now and returns the metrics of the collection. */
  async function metrics(): Promise<MetricData[]> {
    metricExporter.reset();
    await reader.forceFlush();
    const [last] = metricExporter.getMetrics().slice(-1);
    return last ? last.scopeMetrics.flatMap((scope) => scope.metrics) : [];
  }

  return {
    telemetry: { tracerProvider, meterProvider },
    spans: (name?: string): ReadableSpan[] =>
      spanExporter.getFinishedSpans().filter((span) => name === undefined || span.name === name),
    metrics,
    /** The points of metric `name` (a histogram's value is its count). */
    async points(name: string): Promise<Point[]> {
      const metric = (await metrics()).find((data) => data.descriptor.name === name);
      return (metric?.dataPoints ?? []).map((point) => ({
        attributes: point.attributes,
        value:
          typeof point.value === 'number' ? point.value : (point.value as { count: number }).count,
      }));
    },
    async shutdown(): Promise<void> {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
    },
  };
}

/** The points matching `attributes` (every one given), as `value`s. */
export function valuesOf(points: readonly Point[], attributes: Attributes): number[] {
  return points
    .filter((point) =>
      Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
    )
    .map((point) => point.value);
}
