import type { RunEnvironment } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';

/**
 * What a run hands to a partner: the contract a connector receives, the step's evaluated
 * request. `idempotency_key` (`pik_…`) is the same on every attempt of one handoff.
 *
 * @example
 * ```ts
 * const request: HandoffRequest = {
 *   run_id: 'run_01J9Z8Q4M2',
 *   step: 'payout',
 *   party: 'acme_bank',
 *   action: 'pay_out',
 *   data: { amount: '125.00', currency: 'EUR' },
 *   idempotency_key: 'pik_01J9Z8Q4M2payout',
 *   environment: 'test',
 *   account: 'acct_demo',
 * };
 * ```
 */
export interface HandoffRequest {
  readonly run_id: string;
  /** The scenario step that hands off. */
  readonly step: string;
  /** The appointed partner (a party of the scenario). */
  readonly party: string;
  /** What the partner is asked to do, e.g. `pay_out`. */
  readonly action: string;
  /** The step's inputs (money as decimal strings). */
  readonly data: JsonObject;
  /** `pik_…`: one per handoff, repeated on every attempt, so the partner acts once. */
  readonly idempotency_key: string;
  readonly environment: RunEnvironment;
  readonly account: string;
}

/** How a partner settled a handoff. */
export type HandoffOutcome = 'confirmed' | 'rejected' | 'failed';

/**
 * A partner's final answer to a handoff: what it did and its own reference for it.
 *
 * @example
 * ```ts
 * const answer: HandoffAnswer = { outcome: 'confirmed', reference: 'PAY-20931', data: { fee: '0.25' } };
 * ```
 */
export interface HandoffAnswer {
  readonly outcome: HandoffOutcome;
  /** The partner's reference (non-empty, at most 256 characters). */
  readonly reference: string;
  readonly data?: JsonObject;
}

/** What the engine's handoff worker tells a connector about one attempt (call). */
export interface HandoffContext {
  /** Aborts the attempt (a `timeout` transient error). */
  readonly signal: AbortSignal;
  /** 1 for the first attempt, then 2, 3, … */
  readonly attempt: number;
  /** When the handoff as a whole expires; an attempt never outlives it. */
  readonly deadline: Date;
  /** `pik_…`: must equal `request.idempotency_key`. */
  readonly idempotencyKey: string;
}

/**
 * A connector: settles a handoff with a partner's answer, or `'accepted'` when the partner
 * took the request and will answer later (asynchronously). It throws
 * `TransientConnectorError` (retry with backoff, same key) or `PermanentConnectorError`
 * (do not retry).
 *
 * @example
 * ```ts
 * const connector: HandoffConnector = async () => 'accepted';
 * ```
 */
export type HandoffConnector = (
  request: HandoffRequest,
  context: HandoffContext,
) => Promise<HandoffAnswer | 'accepted'>;
