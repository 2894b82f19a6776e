import type { MeterProvider, TracerProvider } from '@opentelemetry/api';

/**
 * Where the engine (or the HTTP handler) gets its tracer and meter: `false` turns
 * telemetry off (no spans, no metrics, no trace context stored with runs); providers of
 * your own are used instead of the global ones. By default the global OpenTelemetry API
 * is used, which costs next to nothing until an SDK is registered.
 *
 * @example
 * ```ts
 * // tracerProvider and meterProvider: from the SDK you run (e.g. @opentelemetry/sdk-node)
 * const engine = createEngine({ store, scenarios, telemetry: { tracerProvider, meterProvider } });
 * const quiet = createEngine({ store, scenarios, telemetry: false });
 * ```
 */
export type TelemetryOptions =
  | false
  | {
      /** @default the global tracer provider (`trace.getTracerProvider()`) */
      readonly tracerProvider?: TracerProvider;
      /** @default the global meter provider (`metrics.getMeterProvider()`) */
      readonly meterProvider?: MeterProvider;
    };
