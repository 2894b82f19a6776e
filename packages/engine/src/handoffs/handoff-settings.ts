import type { HandoffConnector } from '../connectors/handoff-contract.js';
import { assertInteger, assertPositive } from '../flow-control/check-options.js';
import { randomBase62 } from '../ids/random-ids.js';
import { createPartnerFlow, type PartnerFlow } from './partner-flow.js';
import { createJobWakeup, type JobWakeup } from './job-wakeup.js';

/**
 * A partner's connector with the limits this host applies to it.
 *
 * @example
 * ```ts
 * const payoutBank: PartnerConnection = {
 *   connector: async () => 'accepted',
 *   concurrency: 3, // calls in flight across every host sharing the store
 *   rate: 10, // calls per second from this host
 *   maxPerAccount: 1, // one account's backlog never takes every slot
 *   breaker: { failureThreshold: 5, cooldownMs: 30_000 },
 * };
 * ```
 */
export interface PartnerConnection {
  readonly connector: HandoffConnector;
  /** Calls in flight at most, counted across every host sharing the store. @default unlimited */
  readonly concurrency?: number;
  /** Calls per second at most from this host (a token bucket). @default unlimited */
  readonly rate?: number;
  /** Calls in flight at most for one account, so tenants share the party's slots. */
  readonly maxPerAccount?: number;
  /**
   * The party's circuit breaker: it opens after `failureThreshold` consecutive transient
   * failures (default 5) and lets one probe through after `cooldownMs` (default 30000).
   */
  readonly breaker?: { readonly failureThreshold?: number; readonly cooldownMs?: number };
}

/**
 * How handoff jobs are leased, retried and polled.
 *
 * @example
 * ```ts
 * const handoffs: HandoffOptions = {
 *   leaseMs: 30_000,
 *   retry: { initialMs: 1_000, factor: 2, maxMs: 300_000 },
 *   pollIntervalMs: 250,
 *   maxInFlight: 64,
 * };
 * ```
 */
export interface HandoffOptions {
  /** How long a claimed call is held (live clock ms); its AbortSignal fires then. @default 30000 */
  readonly leaseMs?: number;
  /** Backoff between calls of one job: exponential with full jitter, within the step's timeout. */
  readonly retry?: {
    /** @default 1000 */
    readonly initialMs?: number;
    /** @default 2 */
    readonly factor?: number;
    /** @default 300000 */
    readonly maxMs?: number;
  };
  /** How often background workers look for due jobs. @default 250 */
  readonly pollIntervalMs?: number;
  /** Calls in flight at most on this host. @default 64 */
  readonly maxInFlight?: number;
}

/** A configured party: its connector, limits and this host's flow control. */
export interface ResolvedPartner {
  readonly party: string;
  readonly connector: HandoffConnector;
  readonly concurrency: number | null;
  readonly rate: number | null;
  readonly maxPerAccount: number | null;
  readonly flow: PartnerFlow;
}

/** The handoff settings of one engine (one host), with its worker id and partners. */
export interface HandoffSettings {
  /** `wkr_…`: the lease owner of this engine's claims. */
  readonly workerId: string;
  readonly leaseMs: number;
  readonly retry: { readonly initialMs: number; readonly factor: number; readonly maxMs: number };
  readonly pollIntervalMs: number;
  readonly maxInFlight: number;
  /** Live connectors by party id. */
  readonly partners: ReadonlyMap<string, ResolvedPartner>;
  /** Told after a commit that queued a live job. */
  readonly wakeup: JobWakeup;
  /** Uniform in [0, 1): the backoff's jitter. */
  readonly random: () => number;
}

const optionalInteger = (name: string, value: number | undefined): number | null => {
  if (value === undefined) return null;
  assertInteger(name, value, 1);
  return value;
};

function resolvePartner(
  party: string,
  option: HandoffConnector | PartnerConnection,
): ResolvedPartner {
  const connection = typeof option === 'function' ? { connector: option } : option;
  if (typeof connection.connector !== 'function')
    throw new TypeError(`connectors.${party}: connector must be a function`);
  const rate = connection.rate ?? null;
  if (rate !== null) assertPositive(`connectors.${party}.rate`, rate);
  return {
    party,
    connector: connection.connector,
    concurrency: optionalInteger(`connectors.${party}.concurrency`, connection.concurrency),
    rate,
    maxPerAccount: optionalInteger(`connectors.${party}.maxPerAccount`, connection.maxPerAccount),
    flow: createPartnerFlow({
      rate,
      failureThreshold: connection.breaker?.failureThreshold ?? 5,
      cooldownMs: connection.breaker?.cooldownMs ?? 30_000,
    }),
  };
}

/**
 * The engine's handoff settings from its options, with defaults; throws a RangeError or
 * TypeError for a misconfigured party or limit.
 */
export function resolveHandoffSettings(
  connectors: Readonly<Record<string, HandoffConnector | PartnerConnection>> = {},
  options: HandoffOptions = {},
): HandoffSettings {
  const retry = {
    initialMs: options.retry?.initialMs ?? 1_000,
    factor: options.retry?.factor ?? 2,
    maxMs: options.retry?.maxMs ?? 300_000,
  };
  assertInteger('handoffs.retry.initialMs', retry.initialMs, 1);
  assertPositive('handoffs.retry.factor', retry.factor);
  assertInteger('handoffs.retry.maxMs', retry.maxMs, retry.initialMs);
  const settings = {
    workerId: `wkr_${randomBase62(24)}`,
    leaseMs: options.leaseMs ?? 30_000,
    retry,
    pollIntervalMs: options.pollIntervalMs ?? 250,
    maxInFlight: options.maxInFlight ?? 64,
    partners: new Map(
      Object.entries(connectors).map(([party, option]) => [party, resolvePartner(party, option)]),
    ),
    wakeup: createJobWakeup(),
    random: Math.random,
  };
  assertInteger('handoffs.leaseMs', settings.leaseMs, 1);
  assertInteger('handoffs.pollIntervalMs', settings.pollIntervalMs, 1);
  assertInteger('handoffs.maxInFlight', settings.maxInFlight, 1);
  return settings;
}
