import { ValueType, type Attributes, type BatchObservableResult } from '@opentelemetry/api';
import type { RunEnvironment } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import type { CircuitStatus } from '../flow-control/circuit-breaker.js';
import type { HandoffPartyLoad } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import { hostPartyLoads } from './party-loads.js';
import { METRIC_NAMES } from '../telemetry/engine-metrics.js';
import { untraced } from '../telemetry/untraced.js';

const ENVIRONMENTS: readonly RunEnvironment[] = ['live', 'test'];

/** The breaker gauge's values. */
const BREAKER_VALUE: Readonly<Record<CircuitStatus, number>> = {
  closed: 0,
  half_open: 1,
  open: 2,
};

/** The loads of an environment's parties (every account), or null when the store cannot say. */
async function loadsOf(
  context: EngineContext,
  environment: RunEnvironment,
): Promise<HandoffPartyLoad[] | null> {
  try {
    return await untraced(() =>
      context.transactions.run(({ tx }) => hostPartyLoads(context, tx, { environment })),
    );
  } catch {
    // A store that is down reports nothing this collection; the next one tries again.
    return null;
  }
}

/**
 * Registers the engine's flow-control gauges, read when metrics are collected (never per
 * call): handoff jobs queued and in flight per environment and party (from the store,
 * across accounts and hosts; every live party with a connector is reported, 0 when idle),
 * and this host's circuit breaker of each live party (0 closed, 1 half-open, 2 open).
 */
export function registerHandoffGauges(context: EngineContext): void {
  if (!context.telemetry.enabled) return;
  const { meter } = context.telemetry;
  const gauge = (name: string, description: string, unit: string) =>
    meter.createObservableGauge(name, { description, unit, valueType: ValueType.INT });
  const queued = gauge(
    METRIC_NAMES.handoffBacklog,
    'Handoff jobs queued and not in flight (due or waiting for a retry)',
    '{job}',
  );
  const inFlight = gauge(
    METRIC_NAMES.handoffInFlight,
    'Handoff calls in flight (leased), across hosts',
    '{job}',
  );
  const breaker = gauge(
    METRIC_NAMES.breakerState,
    "This host's circuit breaker of a party: 0 closed, 1 half-open, 2 open",
    '1',
  );

  const observeLoads = async (result: BatchObservableResult): Promise<void> => {
    for (const environment of ENVIRONMENTS) {
      const loads = await loadsOf(context, environment);
      if (!loads) continue;
      const byParty = new Map(loads.map((load) => [load.party, load]));
      const parties = new Set(byParty.keys());
      if (environment === 'live')
        for (const party of context.handoffs.partners.keys()) parties.add(party);
      for (const party of parties) {
        const load = byParty.get(party);
        const attributes: Attributes = {
          [ATTRIBUTES.environment]: environment,
          [ATTRIBUTES.party]: party,
        };
        result.observe(queued, load?.queued ?? 0, attributes);
        result.observe(inFlight, load?.in_flight ?? 0, attributes);
      }
    }
  };
  meter.addBatchObservableCallback(observeLoads, [queued, inFlight]);

  breaker.addCallback((result) => {
    const now = context.liveClock.now().getTime();
    for (const partner of context.handoffs.partners.values())
      result.observe(BREAKER_VALUE[partner.flow.state(now).status], {
        [ATTRIBUTES.party]: partner.party,
      });
  });
}
