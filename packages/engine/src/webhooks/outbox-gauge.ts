import { ValueType } from '@opentelemetry/api';
import type { RunEnvironment } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import { METRIC_NAMES } from '../telemetry/engine-metrics.js';
import { untraced } from '../telemetry/untraced.js';

const ENVIRONMENTS: readonly RunEnvironment[] = ['live', 'test'];

/** The environment's pending deliveries, or null when the store cannot say. */
async function pendingOf(
  context: EngineContext,
  environment: RunEnvironment,
): Promise<number | null> {
  try {
    return await untraced(() =>
      context.transactions.run(async ({ tx }) =>
        tx.countPendingWebhookDeliveries ? tx.countPendingWebhookDeliveries(environment) : null,
      ),
    );
  } catch {
    // A store that is down reports nothing this collection; the next one tries again.
    return null;
  }
}

/**
 * Registers the outbox backlog gauge: webhook deliveries pending (due or waiting for a
 * retry) per environment, over every account, read from the store when metrics are
 * collected. A store without `countPendingWebhookDeliveries` reports nothing.
 */
export function registerOutboxGauge(context: EngineContext): void {
  if (!context.telemetry.enabled) return;
  const gauge = context.telemetry.meter.createObservableGauge(METRIC_NAMES.outboxBacklog, {
    description: 'Webhook deliveries pending (due or waiting for a retry)',
    unit: '{delivery}',
    valueType: ValueType.INT,
  });
  gauge.addCallback(async (result) => {
    for (const environment of ENVIRONMENTS) {
      const pending = await pendingOf(context, environment);
      if (pending !== null) result.observe(pending, { [ATTRIBUTES.environment]: environment });
    }
  });
}
