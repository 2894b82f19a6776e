import type { RunEnvironment } from '@programrun/dsl';
import type { Page, Scope } from './run-spec.js';

/** One signing secret of an endpoint; several are valid while a rotation overlaps. */
export interface WebhookSecretRow {
  /**
   * `whsec_` + base64 of 32 random bytes, or that secret sealed (`sealed:v1:<key id>:…`,
   * AES-256-GCM) when the host configured `webhooks.secretKeys`. Stores keep it as given.
   */
  readonly secret: string;
  /** The secret's last four characters (what the API shows), kept beside a sealed one. */
  readonly last4?: string;
  readonly created_at: string;
  /** Wall-clock ISO time after which it no longer signs; null for the current secret. */
  readonly expires_at: string | null;
}

/** Why an endpoint stopped receiving events. */
export type WebhookDisabledReason = 'gone' | 'consistent_failure' | 'requested';

/** A registered webhook endpoint. */
export interface WebhookEndpointRow {
  /** `we_…` */
  readonly id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly url: string;
  readonly description: string | null;
  /** Event types (`program_run.completed`), prefix patterns (`program_run.handoff.*`) or `*`. */
  readonly enabled_events: readonly string[];
  readonly status: 'enabled' | 'disabled';
  readonly disabled_reason: WebhookDisabledReason | null;
  readonly disabled_at: string | null;
  /** Current secret first, then older ones still inside their rotation overlap. */
  readonly secrets: readonly WebhookSecretRow[];
  /** First failed attempt since the last successful one; null while healthy. */
  readonly failing_since: string | null;
  /** How many times the endpoint was disabled (names each `webhook_endpoint.disabled` event). */
  readonly disabled_count: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * One event in the transactional outbox: written in the same transaction as the
 * lifecycle record it shows, with the exact bytes every delivery sends.
 */
export interface WebhookEventRow {
  /** `evt_…`, the record's deterministic id. */
  readonly id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly type: string;
  readonly created: string;
  /** Null for account-level events (`webhook_endpoint.disabled`). */
  readonly run_id: string | null;
  readonly sequence: number | null;
  /** RFC 8785 canonical JSON of the event: the delivered body, byte for byte. */
  readonly body: string;
  /**
   * W3C `traceparent` of the run's trace (its creating span): later spans of the run join its trace. Optional in
   * store spec v1 (a store that drops it loses only trace continuity); null when no tracer
   * was recording.
   */
  readonly trace_context?: string | null;
}

/** Where one event stands with one endpoint. */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One event owed to one endpoint: retried until delivered, failed or cancelled. */
export interface WebhookDeliveryRow {
  /** `wdl_` + digest of event and endpoint ids: one delivery per pair. */
  readonly id: string;
  readonly event_id: string;
  readonly endpoint_id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly status: WebhookDeliveryStatus;
  /** Attempts made so far (the compare-and-swap version of the row). */
  readonly attempts: number;
  /** Attempts since the delivery was last queued (a redelivery starts the schedule over). */
  readonly schedule_attempts: number;
  /** When the next attempt is due, on the environment's base clock; null once settled. */
  readonly next_attempt_at: string | null;
  /** Wall-clock ISO time until which a dispatcher holds it; expired leases are taken over. */
  readonly lease_until: string | null;
  readonly last_error: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly delivered_at: string | null;
}

/** One HTTP attempt of a delivery, kept forever with the delivery. */
export interface WebhookAttemptRow {
  readonly delivery_id: string;
  /** 1-based. */
  readonly attempt: number;
  /** Wall-clock ISO time the request started. */
  readonly started_at: string;
  /** The receiver's status code; null when no response arrived. */
  readonly status: number | null;
  readonly latency_ms: number;
  /** Stable code of what went wrong (`timeout`, `connection_failed`, `http_status`, …); null on success. */
  readonly error_code: string | null;
  readonly error_message: string | null;
  /** First KiB of the response body, for debugging. */
  readonly response_excerpt: string | null;
}

/** Filters of the event list; results are newest first. */
export interface WebhookEventQuery {
  readonly type?: string;
  readonly run_id?: string;
  /** Derived from the event's deliveries: none, pending, failed (and none pending) or all delivered. */
  readonly delivery_status?: 'none' | 'pending' | 'delivered' | 'failed';
  readonly starting_after?: string;
  readonly limit: number;
}

/** What a dispatcher asks for: due deliveries of one environment, leased until `lease_until`. */
export interface WebhookClaim {
  readonly environment: RunEnvironment;
  /** Deliveries whose `next_attempt_at` is at or before this (environment base clock). */
  readonly due_at: string;
  /** Now on the wall clock: leases that ended before it are free. */
  readonly lease_now: string;
  readonly lease_until: string;
  readonly limit: number;
  /**
   * Deliveries of one account (and environment) leased at once, counting leases other
   * claims hold that have not ended at `lease_now`; absent: no cap.
   */
  readonly max_per_account?: number;
  /** Deliveries of one endpoint leased at once, counted the same way; absent: no cap. */
  readonly max_per_endpoint?: number;
}

/** Webhook endpoints, the events outbox, deliveries and their attempts. */
export interface WebhookOperations {
  /** Inserts an endpoint; throws `duplicate_key` when the id exists. */
  insertWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void>;
  getWebhookEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRow | undefined>;
  /** Endpoints of a scope, oldest first. */
  listWebhookEndpoints(scope: Scope): Promise<WebhookEndpointRow[]>;
  /** Replaces an endpoint that exists; throws `not_found` otherwise. */
  updateWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void>;
  /** Removes an endpoint; its deliveries stay (and are cancelled when next claimed). */
  deleteWebhookEndpoint(scope: Scope, id: string): Promise<void>;
  /**
   * Endpoints of every scope whose id sorts after `after` (`''`: from the first), by id,
   * at most `limit`: for maintenance over all endpoints, such as sealing secrets again.
   */
  scanWebhookEndpoints(after: string, limit: number): Promise<WebhookEndpointRow[]>;

  /** Appends events to the outbox; throws `duplicate_key` when an id exists. */
  insertWebhookEvents(events: readonly WebhookEventRow[]): Promise<void>;
  getWebhookEvent(scope: Scope, id: string): Promise<WebhookEventRow | undefined>;
  /** Events of a scope, newest first (one run's events in descending sequence). */
  listWebhookEvents(scope: Scope, query: WebhookEventQuery): Promise<Page<WebhookEventRow>>;

  /** Inserts deliveries; throws `duplicate_key` when an id exists. */
  insertWebhookDeliveries(deliveries: readonly WebhookDeliveryRow[]): Promise<void>;
  getWebhookDelivery(scope: Scope, id: string): Promise<WebhookDeliveryRow | undefined>;
  /** Deliveries of one event, by endpoint id. */
  listWebhookDeliveries(scope: Scope, eventId: string): Promise<WebhookDeliveryRow[]>;
  /**
   * Replaces a delivery if its stored `attempts` is `expectedAttempts` (so two
   * dispatchers never both record the same attempt); else throws `version_conflict`.
   */
  updateWebhookDelivery(delivery: WebhookDeliveryRow, expectedAttempts: number): Promise<void>;
  /**
   * Leases due pending deliveries of one environment whose lease is free, setting
   * `lease_until`; returns them as leased, earliest due first (ties by id). Rows another
   * transaction is claiming are skipped, not waited for.
   *
   * Fair shares: a delivery is *in flight* while it is pending with a lease that has not
   * ended at `lease_now`. An endpoint with `e` in flight offers only its `max_per_endpoint
   * − e` earliest due free deliveries, and an account with `a` in flight takes only the
   * `max_per_account − a` earliest of what its endpoints offer. Accounts then take turns:
   * the delivery ranked `r` (1-based, earliest due first, ties by id) among its account's
   * is on turn `a + r`, and the claim takes the lowest turns first (ties: earliest due,
   * then id), up to `limit`. One account's backlog therefore never fills a claim while
   * another account has due deliveries.
   */
  claimWebhookDeliveries(claim: WebhookClaim): Promise<WebhookDeliveryRow[]>;
  /** Earliest `next_attempt_at` of the environment's pending deliveries, if any. */
  nextWebhookAttempt(environment: RunEnvironment): Promise<string | undefined>;
  /**
   * How many of the environment's deliveries are pending (due or waiting for a retry,
   * leased or not), over every account: the outbox backlog gauge reads it. Every store
   * passing the contract has it; optional in store spec v1 so that a store written before
   * it still compiles (without it, only the gauge is missing).
   */
  countPendingWebhookDeliveries?(environment: RunEnvironment): Promise<number>;
  /** Keeps an attempt; throws `duplicate_key` when (delivery, attempt) exists. */
  appendWebhookAttempt(attempt: WebhookAttemptRow): Promise<void>;
  /** Attempts of a delivery, in order. */
  listWebhookAttempts(deliveryId: string): Promise<WebhookAttemptRow[]>;
}
