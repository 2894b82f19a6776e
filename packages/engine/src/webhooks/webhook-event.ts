import { canonicalize, type JsonObject, type Sha256Digest } from '@programrun/evidence';
import type { RunEnvironment } from '@programrun/dsl';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';

/** The run an event is about: enough to route it without fetching the run. */
export interface WebhookEventRun {
  readonly id: string;
  readonly scenario_id: string;
  readonly scenario_digest: Sha256Digest;
}

/**
 * One event as webhooks deliver it and `GET /v1/events` lists it: a view of one
 * lifecycle record (or, for `webhook_endpoint.*`, of an account-level fact). Its bytes
 * are the RFC 8785 canonical JSON of this object, so every redelivery is identical.
 */
export interface WebhookEvent {
  /** `evt_…`: the lifecycle record's deterministic id (also the `webhook-id` header). */
  readonly id: string;
  readonly object: 'event';
  /** `program_run.<fact>` or `webhook_endpoint.disabled`. */
  readonly type: string;
  /** 1-based position in the run's history; null for account-level events. */
  readonly sequence: number | null;
  /** ISO 8601 time of the record on the run's environment clock. */
  readonly created: string;
  readonly livemode: boolean;
  /** The run; null for account-level events. */
  readonly run: WebhookEventRun | null;
  readonly stage: string | null;
  readonly step: string | null;
  /** Type-specific facts: the lifecycle record's `data`. */
  readonly data: JsonObject;
  /** The lifecycle record's hash (it chains into the run's evidence); null for account-level events. */
  readonly record_hash: Sha256Digest | null;
}

/**
 * The event of a lifecycle record.
 *
 * @example
 * ```ts
 * const event = webhookEventOf(record, { id: run.id, scenario_id: run.scenario_id, scenario_digest: run.scenario_digest }, 'test');
 * event.id === record.id; // true
 * ```
 */
export function webhookEventOf(
  record: LifecycleRecord,
  run: WebhookEventRun,
  environment: RunEnvironment,
): WebhookEvent {
  return {
    id: record.id,
    object: 'event',
    type: record.type,
    sequence: record.sequence,
    created: record.created,
    livemode: environment === 'live',
    run: { id: run.id, scenario_id: run.scenario_id, scenario_digest: run.scenario_digest },
    stage: record.stage,
    step: record.step,
    data: record.data,
    record_hash: record.hash,
  };
}

/**
 * The exact bytes a webhook delivers: RFC 8785 canonical JSON of the event.
 *
 * @example
 * ```ts
 * webhookEventBody(event) === webhookEventBody(structuredClone(event)); // true
 * ```
 */
export function webhookEventBody(event: WebhookEvent): string {
  return canonicalize(event);
}
