import type { ScenarioCatalogue } from './catalogue/scenario-catalogue.js';
import type { EvidenceKeys } from './evidence/evidence-keys.js';
import type { HandoffSettings } from './handoffs/handoff-settings.js';
import type { SandboxOptions } from './handoffs/sandbox.js';
import type { IdGenerator } from './ids/random-ids.js';
import type { RunChanges } from './kernel/run-changes.js';
import type { TransactionRunner } from './kernel/transaction-runner.js';
import type { DeliveryWakeup } from './outbox/delivery-wakeup.js';
import type { Clock } from './time/clock.js';
import type { EnvironmentClocks } from './time/environment-clocks.js';
import type { EngineMetrics } from './telemetry/engine-metrics.js';
import type { Telemetry } from './telemetry/telemetry.js';
import type { BackgroundWorkers } from './health/background-workers.js';

/**
 * What the engine's modules share, built once by `createEngine` and passed explicitly: no
 * module reaches for a global clock, store or id source.
 */
export interface EngineContext {
  readonly transactions: TransactionRunner;
  /** Watchers of runs, told after each commit that changed their run. */
  readonly runChanges: RunChanges;
  readonly catalogue: ScenarioCatalogue;
  /** The live clock: leases, endpoint timestamps, activation times. */
  readonly liveClock: Clock;
  /** Each scope's time (live, or the account's test clock). */
  readonly clocks: EnvironmentClocks;
  readonly ids: IdGenerator;
  readonly sandbox: SandboxOptions;
  /** Live connectors with this host's flow control, leases, retries and the job wake-up. */
  readonly handoffs: HandoffSettings;
  /**
   * This host's leased handoff jobs whose partner calls are over and whose results are
   * being written (every worker's): the load reports count them as neither in flight nor
   * queued, as the claims do.
   */
  readonly endedCalls: Set<string>;
  /** How long a host holds the due timers it claimed (live clock milliseconds). */
  readonly timerLeaseMs: number;
  /** When queued webhook deliveries fall due, and the wake-up after their commit. */
  readonly deliveries: DeliveryWakeup;
  /** The evidence signing keys of each environment, and the public ones. */
  readonly evidenceKeys: EvidenceKeys;
  /** Tracer and meter (or no-ops when telemetry is off). */
  readonly telemetry: Telemetry;
  /** The engine's metric instruments, on `telemetry.meter`. */
  readonly metrics: EngineMetrics;
  /** The engine's long-running loops (scheduler, handoff workers, dispatcher), for readiness. */
  readonly background: BackgroundWorkers;
}
