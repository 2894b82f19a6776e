import type { RunEnvironment } from '@programrun/dsl';
import type {
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookDisabledReason,
  WebhookEndpointRow,
  WebhookEventRow,
} from '../store/webhook-spec.js';
import type { WebhookEvent } from './webhook-event.js';
import { lastFour } from './sealed-endpoint.js';
import { activeSecrets } from './webhook-secret.js';

/** A webhook endpoint as the API shows it: never its secrets, only their last four characters. */
export interface WebhookEndpointRecord {
  readonly object: 'webhook_endpoint';
  readonly id: string;
  readonly livemode: boolean;
  readonly url: string;
  readonly description: string | null;
  readonly enabled_events: readonly string[];
  readonly status: 'enabled' | 'disabled';
  readonly disabled_reason: WebhookDisabledReason | null;
  readonly disabled_at: string | null;
  /** The secrets that sign deliveries now: the current one first, then any inside a rotation overlap. */
  readonly secrets: readonly {
    readonly last4: string;
    readonly created_at: string;
    readonly expires_at: string | null;
  }[];
  readonly failing_since: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** An endpoint with the secret that was just made: the only time the secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpointRecord {
  readonly secret: string;
}

/** An event as `GET /v1/events` lists it: the delivered event plus where its deliveries stand. */
export interface EventRecord extends WebhookEvent {
  /** `none` (no endpoint subscribed), `pending`, `failed` (none pending) or `delivered`. */
  readonly delivery_status: 'none' | 'pending' | 'delivered' | 'failed';
  /** Deliveries still pending. */
  readonly pending_webhooks: number;
}

/** One attempt, as the API shows it. */
export interface WebhookAttemptRecord {
  readonly attempt: number;
  readonly started_at: string;
  readonly status: number | null;
  readonly latency_ms: number;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly response_excerpt: string | null;
}

/** One event's delivery to one endpoint, with every attempt. */
export interface WebhookDeliveryRecord {
  readonly object: 'webhook_delivery';
  readonly id: string;
  readonly event: string;
  readonly endpoint: string;
  readonly livemode: boolean;
  readonly status: WebhookDeliveryRow['status'];
  readonly attempt_count: number;
  readonly next_attempt_at: string | null;
  readonly last_error: string | null;
  readonly created_at: string;
  readonly delivered_at: string | null;
  readonly attempts: readonly WebhookAttemptRecord[];
}

const livemode = (environment: RunEnvironment): boolean => environment === 'live';

/**
 * The API form of a stored endpoint, showing which secrets sign at `now`.
 */
export function toWebhookEndpointRecord(row: WebhookEndpointRow, now: Date): WebhookEndpointRecord {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    livemode: livemode(row.environment),
    url: row.url,
    description: row.description,
    enabled_events: row.enabled_events,
    status: row.status,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    secrets: activeSecrets(row.secrets, now).map((secret) => ({
      last4: lastFour(secret),
      created_at: secret.created_at,
      expires_at: secret.expires_at,
    })),
    failing_since: row.failing_since,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The API form of an outbox event with the state of its deliveries.
 */
export function toEventRecord(
  row: WebhookEventRow,
  deliveries: readonly WebhookDeliveryRow[],
): EventRecord {
  const live = deliveries.filter((delivery) => delivery.status !== 'cancelled');
  const pending = live.filter((delivery) => delivery.status === 'pending').length;
  const deliveryStatus =
    live.length === 0
      ? 'none'
      : pending > 0
        ? 'pending'
        : live.some((delivery) => delivery.status === 'failed')
          ? 'failed'
          : 'delivered';
  return {
    ...(JSON.parse(row.body) as WebhookEvent),
    delivery_status: deliveryStatus,
    pending_webhooks: pending,
  };
}

/**
 * The API form of a delivery with its attempts.
 */
export function toWebhookDeliveryRecord(
  row: WebhookDeliveryRow,
  attempts: readonly WebhookAttemptRow[],
): WebhookDeliveryRecord {
  return {
    object: 'webhook_delivery',
    id: row.id,
    event: row.event_id,
    endpoint: row.endpoint_id,
    livemode: livemode(row.environment),
    status: row.status,
    attempt_count: row.attempts,
    next_attempt_at: row.next_attempt_at,
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      started_at: attempt.started_at,
      status: attempt.status,
      latency_ms: attempt.latency_ms,
      error:
        attempt.error_code === null
          ? null
          : { code: attempt.error_code, message: attempt.error_message ?? '' },
      response_excerpt: attempt.response_excerpt,
    })),
  };
}
