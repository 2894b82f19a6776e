import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine, Scope } from '@programrun/engine';
import { createWebhookDispatcher, type WebhookDispatcherOptions } from '../src/index.js';
import { WALLET_INPUTS } from '../../engine/test/scenarios.js';
import { startReceiver } from './receiver.js';
import { startSilentServer, type ConnectionLog } from './silent-server.js';

// The finding of issue 15 as a measurement: tenant A's endpoints never answer (each
// attempt waits for the whole timeout), tenant B has one fast endpoint, and both keep
// creating runs while the real dispatcher delivers over real sockets on 127.0.0.1.

/** What {@link measureNoisyNeighbour} sets up and for how long. */
export interface NoisyNeighbourOptions {
  readonly engine: Engine;
  /** Tenant A's endpoints: each on its own server that accepts and never answers. */
  readonly silentEndpoints: number;
  readonly dispatcher: WebhookDispatcherOptions & { readonly timeoutMs: number };
  /** How long B keeps creating runs (one each 250 ms; A one each second). */
  readonly windowMs: number;
  /** How long to wait, after the window, for B's last deliveries. */
  readonly deadlineMs: number;
  /** Registers a cleanup step (servers, the dispatcher). */
  readonly cleanup: (step: () => Promise<void>) => void;
}

/** Tenant B's delivery latencies (ms from the start of the run's creation to arrival). */
export interface NoisyNeighbourResult {
  readonly silentEndpoints: number;
  readonly timeoutMs: number;
  readonly tenantBEvents: number;
  readonly delivered: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /**
   * Most requests to A's servers in flight at once: each held from its connection until
   * the dispatcher's timeout (less 100 ms of slack for the next request of the same slot).
   */
  readonly tenantAMaxInFlight: number;
  /** Deliveries to B that failed signature verification. */
  readonly rejected: number;
}

const tenantA: Scope = { account: 'acct_tenant_a', environment: 'live' };
const tenantB: Scope = { account: 'acct_tenant_b', environment: 'live' };

/** Most of the intervals [start, start + length) that overlap at one instant. */
function maxOverlap(starts: readonly number[], length: number): number {
  const edges = starts.flatMap((start) => [
    { at: start, step: 1 },
    { at: start + length, step: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let most = 0;
  for (const edge of edges) most = Math.max(most, (open += edge.step));
  return most;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Runs the noisy-neighbour measurement and returns tenant B's latencies; undelivered
 * events count as infinitely late.
 *
 * @example
 * ```ts
 * const result = await measureNoisyNeighbour({ engine, silentEndpoints: 14, dispatcher: { timeoutMs: 2000 }, windowMs: 5000, deadlineMs: 10_000, cleanup });
 * ```
 */
export async function measureNoisyNeighbour(
  options: NoisyNeighbourOptions,
): Promise<NoisyNeighbourResult> {
  const { engine, cleanup } = options;
  let runs = 0;
  const createRun = (scope: Scope) =>
    engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
      idempotency_key: `noisy-${(runs += 1)}`,
    });

  const connectionsA: ConnectionLog = { accepted: [] };
  for (let index = 0; index < options.silentEndpoints; index += 1) {
    const silent = await startSilentServer(connectionsA);
    cleanup(() => silent.close());
    await engine.webhooks.createEndpoint(tenantA, { url: silent.url });
  }
  const fast = await startReceiver();
  cleanup(() => fast.close());
  const endpointB = await engine.webhooks.createEndpoint(tenantB, { url: fast.url });
  fast.secrets = [endpointB.secret];
  /** Wall time each of B's events first arrived. */
  const arrivals = new Map<string, number>();
  fast.mode = (delivery) => {
    if (!arrivals.has(delivery.id)) arrivals.set(delivery.id, performance.now());
    return 204;
  };

  const dispatcher = createWebhookDispatcher(engine, options.dispatcher);
  cleanup(() => dispatcher.stop());
  dispatcher.start();

  // A's backlog first: every event of a run goes to each silent endpoint.
  for (let index = 0; index < 6; index += 1) await createRun(tenantA);
  await sleep(100);

  /** When the creation of each of B's events started. */
  const created = new Map<string, number>();
  const windowEnd = performance.now() + options.windowMs;
  for (let tick = 1; performance.now() < windowEnd; tick += 1) {
    const startedAt = performance.now();
    const { run } = await createRun(tenantB);
    const events = await engine.webhooks.listEvents(tenantB, { run_id: run.id, limit: 100 });
    for (const event of events.data) created.set(event.id, startedAt);
    if (tick % 4 === 0) await createRun(tenantA); // A keeps adding work
    await sleep(250);
  }
  const deadline = performance.now() + options.deadlineMs;
  while (arrivals.size < created.size && performance.now() < deadline) await sleep(20);

  const sorted = [...created]
    .map(([id, at]) => (arrivals.get(id) ?? Infinity) - at)
    .sort((a, b) => a - b);
  return {
    silentEndpoints: options.silentEndpoints,
    timeoutMs: options.dispatcher.timeoutMs,
    tenantBEvents: created.size,
    delivered: arrivals.size,
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
    max: Math.round(sorted.at(-1)!),
    tenantAMaxInFlight: maxOverlap(connectionsA.accepted, options.dispatcher.timeoutMs - 100),
    rejected: fast.rejected.length,
  };
}
