import type { CompiledScenario } from '@programrun/dsl';
import type { ScenarioCatalogue } from './catalogue/scenario-catalogue.js';
import type { AdjustableClock, Clock } from './time/clock.js';
import type { IdGenerator } from './ids/random-ids.js';
import type { StoreV1 } from './store/store-v1.js';
import type { SandboxOptions } from './handoffs/sandbox.js';
import type { EvidenceKeysOption } from './evidence/evidence-keys.js';
import type { WebhookOptions } from './webhooks/webhook-options.js';
import type { HandoffConnector } from './connectors/handoff-contract.js';
import type { HandoffOptions, PartnerConnection } from './handoffs/handoff-settings.js';
import type { TelemetryOptions } from './telemetry/telemetry-options.js';

/** Options of `createEngine`. */
export interface EngineOptions {
  /** Where runs, lifecycle records, timers and idempotency records live. */
  readonly store: StoreV1;
  /** The scenarios this engine runs. */
  readonly scenarios: readonly CompiledScenario[] | ScenarioCatalogue;
  /** Clock of the live environment. @default systemClock */
  readonly clock?: Clock;
  /**
   * Clock of the test environment; `advanceTestClock` moves it.
   * @default an offset clock over `clock` (real time that can jump ahead)
   */
  readonly testClock?: AdjustableClock;
  /** Makes run ids. @default randomIds() */
  readonly ids?: IdGenerator;
  /** Behaviour of simulated counterparties in the test environment. */
  readonly sandbox?: SandboxOptions;
  /** Retries of a transaction that lost a compare-and-swap race. @default 8 */
  readonly maxConflictRetries?: number;
  /**
   * How long a host holds the due timers it claimed (live clock milliseconds). Another
   * host takes over timers whose lease ended, so a crashed host's timers still fire.
   * @default 60000
   */
  readonly timerLeaseMs?: number;
  /**
   * Evidence signing keys: `{ test, live }`, a key set per environment (each one active
   * key, retired ones kept), so that each environment's evidence is signed by its own keys
   * and the JWKS says which. One set signing both environments is still accepted, but a
   * verifier cannot then tell test evidence's key from live's. Without keys runs still
   * work, but evidence cannot be exported. Keep them outside the store and never lose a
   * key that signed evidence someone holds.
   */
  readonly evidence?: { readonly keys: EvidenceKeysOption };
  /** Webhook endpoints and delivery: loopback for development, retry schedule, limits. */
  readonly webhooks?: WebhookOptions;
  /**
   * The partners this host calls in the live environment, by party id: a connector, or a
   * connector with its limits. A live handoff to a party listed here becomes a durable job
   * that workers call (with retries, leases and flow control); without one, the host posts
   * answers to the handoff endpoint as before. Test runs always use the sandbox connector.
   */
  readonly connectors?: Readonly<Record<string, HandoffConnector | PartnerConnection>>;
  /** How handoff jobs are leased, retried and polled. */
  readonly handoffs?: HandoffOptions;
  /**
   * OpenTelemetry: spans for creates, signals, timers, connector calls, webhook deliveries
   * and store transactions, one trace per run, and metrics (docs/guides/observability.md).
   * `false` turns it off; providers of your own replace the global ones.
   * @default the global OpenTelemetry API (near-free until an SDK is registered)
   */
  readonly telemetry?: TelemetryOptions;
  /**
   * Batch commit: `engine.signal` and `engine.createRun` may commit their transition in one
   * statement with other runs' transitions arriving at the same time, each still whole by
   * itself (a conflict retries that run alone). A store that is writing a batch collects
   * what arrives meanwhile; with `maxWaitMs`, a write arriving at an idle store waits up to
   * that long for others. Timer firings and partner answers are always batched this way
   * (with no wait). Stores without batching (memory, PGlite: one transaction at a time)
   * ignore it.
   * @default off
   */
  readonly batch?: { readonly maxWaitMs?: number };
}
