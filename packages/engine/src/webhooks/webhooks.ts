import { sha256Digest } from '@programrun/evidence';
import type { RunEnvironment } from '@programrun/dsl';
import type { Clock } from '../clock.js';
import { EngineError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Page, Scope, StoreTransactionV1, StoreV1 } from '../store/store-v1.js';
import type {
  WebhookDeliveryRow,
  WebhookDisabledReason,
  WebhookEndpointRow,
  WebhookEventQuery,
  WebhookEventRow,
} from '../store/webhook-rows.js';
import type { EnvironmentClocks } from '../timers/environment-clocks.js';
import {
  rotationOverlapSeconds,
  validateEndpointFields,
  type CreateWebhookEndpointInput,
  type UpdateWebhookEndpointInput,
} from './endpoint-input.js';
import { matchesEnabledEvents } from './event-filter.js';
import { deliveryId, enqueueEvents, pendingDelivery, type Outbox } from './outbox.js';
import { DEFAULT_RETRY_SCHEDULE, retryDelayMs } from './retry-schedule.js';
import type { WebhookEvent } from './webhook-event.js';
import type { WebhookOptions } from './webhook-options.js';
import {
  toEventRecord,
  toWebhookDeliveryRecord,
  toWebhookEndpointRecord,
  type EventRecord,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookEndpointWithSecret,
} from './webhook-records.js';
import { activeSecrets, generateWebhookSecret } from './webhook-secret.js';

/** What one HTTP attempt came to, as a dispatcher reports it. */
export interface AttemptOutcome {
  /** Wall-clock time the request started. */
  readonly startedAt: Date;
  readonly status: number | null;
  readonly latencyMs: number;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly responseExcerpt: string | null;
}

/** A claimed delivery ready to send: the exact body and the secrets that sign it now. */
export interface PreparedDelivery {
  readonly delivery: WebhookDeliveryRow;
  readonly url: string;
  readonly body: string;
  readonly secrets: readonly string[];
}

/** What a dispatcher uses: claim due deliveries, prepare them, and settle each attempt. */
export interface WebhookOutbox {
  /** Whether endpoint URLs may be loopback (the host's choice, see `WebhookOptions`). */
  readonly allowLoopback: boolean;
  /** Leases up to `limit` due deliveries of an environment until `leaseUntil` (wall clock). */
  claim(
    environment: RunEnvironment,
    limit: number,
    leaseNow: Date,
    leaseUntil: Date,
  ): Promise<WebhookDeliveryRow[]>;
  /**
   * The body and signing secrets of a claimed delivery, or null when it was settled
   * without sending (endpoint deleted → cancelled; endpoint disabled → failed).
   */
  prepare(delivery: WebhookDeliveryRow): Promise<PreparedDelivery | null>;
  /** Records an attempt and what follows: delivered, retried later, failed, endpoint disabled. */
  settle(delivery: WebhookDeliveryRow, outcome: AttemptOutcome): Promise<void>;
  /** Earliest due time of the environment's pending deliveries (its base clock). */
  nextAttemptAt(environment: RunEnvironment): Promise<string | undefined>;
  /** Calls `listener` whenever deliveries are queued; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** Webhook endpoints, the event list, redelivery, and the outbox dispatchers drain. */
export interface Webhooks {
  createEndpoint(
    scope: Scope,
    input: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointWithSecret>;
  listEndpoints(scope: Scope): Promise<WebhookEndpointRecord[]>;
  getEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRecord>;
  updateEndpoint(
    scope: Scope,
    id: string,
    input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpointRecord>;
  /** Removes an endpoint; deliveries still owed to it are cancelled. */
  deleteEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRecord>;
  /**
   * Makes a new signing secret; the previous ones keep signing (every delivery carries
   * one signature per valid secret) for `overlap_seconds` (default 24 h, at most 7 days).
   */
  rotateSecret(
    scope: Scope,
    id: string,
    input?: { readonly overlap_seconds?: number | undefined },
  ): Promise<WebhookEndpointWithSecret>;
  listEvents(scope: Scope, query?: Partial<WebhookEventQuery>): Promise<Page<EventRecord>>;
  getEvent(scope: Scope, id: string): Promise<EventRecord>;
  /** Every delivery of an event, with every attempt. */
  listDeliveries(scope: Scope, eventId: string): Promise<WebhookDeliveryRecord[]>;
  /**
   * Queues an event again, now, to one endpoint or to every enabled endpoint that
   * subscribes to its type or already had it; it will carry the same id and bytes.
   */
  redeliver(
    scope: Scope,
    eventId: string,
    input?: { readonly endpoint?: string | undefined },
  ): Promise<WebhookDeliveryRecord[]>;
  readonly outbox: WebhookOutbox;
}

/** What {@link createWebhooks} needs from the engine. */
export interface WebhooksContext {
  readonly store: StoreV1;
  readonly clocks: EnvironmentClocks;
  /** The live clock: endpoint timestamps and secret expiry. */
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly options: WebhookOptions;
}

const MAX_EVENT_LIST = 100;

/**
 * The engine's webhook service and its outbox (used by `createEngine`).
 *
 * @example
 * ```ts
 * const { webhooks, outbox } = createWebhooks({ store, clocks, clock, ids, options: {} });
 * ```
 */
export function createWebhooks(context: WebhooksContext): { webhooks: Webhooks; outbox: Outbox } {
  const { store, clocks, clock, ids, options } = context;
  const allowLoopback = options.allowLoopback ?? false;
  const schedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const random = options.random ?? Math.random;
  const maxEndpoints = options.maxEndpoints ?? 16;
  const listeners = new Set<() => void>();
  const baseNow = (environment: RunEnvironment): Date =>
    environment === 'live' ? clocks.live() : clocks.testBase();
  const outbox: Outbox = {
    dueAt: (scope) => baseNow(scope.environment).toISOString(),
    enqueued: () => {
      for (const listener of listeners) listener();
    },
  };
  /** The shortest a whole retry schedule can take (all jitter low). */
  const windowMs = (environment: RunEnvironment): number =>
    schedule[environment].reduce((sum, seconds) => sum + seconds, 0) * 800;

  async function loadEndpoint(
    tx: StoreTransactionV1,
    scope: Scope,
    id: string,
  ): Promise<WebhookEndpointRow> {
    const endpoint = await tx.getWebhookEndpoint(scope, id);
    if (!endpoint) {
      throw new EngineError(
        'webhook_endpoint_not_found',
        `No webhook endpoint ${id} in this account and environment.`,
      );
    }
    return endpoint;
  }

  async function loadEvent(
    tx: StoreTransactionV1,
    scope: Scope,
    id: string,
  ): Promise<WebhookEventRow> {
    const event = await tx.getWebhookEvent(scope, id);
    if (!event)
      throw new EngineError('event_not_found', `No event ${id} in this account and environment.`);
    return event;
  }

  /** Disables an endpoint and tells the account's other endpoints with a `webhook_endpoint.disabled` event. */
  async function disable(
    tx: StoreTransactionV1,
    scope: Scope,
    endpoint: WebhookEndpointRow,
    reason: WebhookDisabledReason,
    status: number | null,
  ): Promise<void> {
    const at = clock.now().toISOString();
    const disabled: WebhookEndpointRow = {
      ...endpoint,
      status: 'disabled',
      disabled_reason: reason,
      disabled_at: at,
      disabled_count: endpoint.disabled_count + 1,
      updated_at: at,
    };
    await tx.updateWebhookEndpoint(disabled);
    if (reason === 'requested') return;
    const event: WebhookEvent = {
      id: `evt_${sha256Digest(`${endpoint.id}:disabled:${disabled.disabled_count}`).slice(7, 39)}`,
      object: 'event',
      type: 'webhook_endpoint.disabled',
      sequence: null,
      created: (await clocks.now(tx, scope)).toISOString(),
      livemode: scope.environment === 'live',
      run: null,
      stage: null,
      step: null,
      data: {
        endpoint: { id: endpoint.id, url: endpoint.url },
        reason,
        status,
        failing_since: endpoint.failing_since,
        disabled_at: at,
      },
      record_hash: null,
    };
    if (
      (await enqueueEvents(tx, scope, [event], outbox.dueAt(scope), {
        excludeEndpoint: endpoint.id,
      })) > 0
    )
      outbox.enqueued();
  }

  async function deliveriesWithAttempts(tx: StoreTransactionV1, scope: Scope, eventId: string) {
    const deliveries = await tx.listWebhookDeliveries(scope, eventId);
    return Promise.all(
      deliveries.map(async (delivery) =>
        toWebhookDeliveryRecord(delivery, await tx.listWebhookAttempts(delivery.id)),
      ),
    );
  }

  const webhookOutbox: WebhookOutbox = {
    allowLoopback,

    claim(environment, limit, leaseNow, leaseUntil) {
      return store.transaction((tx) =>
        tx.claimWebhookDeliveries({
          environment,
          due_at: baseNow(environment).toISOString(),
          lease_now: leaseNow.toISOString(),
          lease_until: leaseUntil.toISOString(),
          limit,
        }),
      );
    },

    prepare(delivery) {
      const scope: Scope = { account: delivery.account, environment: delivery.environment };
      return store.transaction(async (tx) => {
        const current = await tx.getWebhookDelivery(scope, delivery.id);
        if (current?.status !== 'pending' || current.attempts !== delivery.attempts) return null;
        const endpoint = await tx.getWebhookEndpoint(scope, delivery.endpoint_id);
        if (!endpoint || endpoint.status === 'disabled') {
          const at = outbox.dueAt(scope);
          await tx.updateWebhookDelivery(
            {
              ...current,
              status: endpoint ? 'failed' : 'cancelled',
              next_attempt_at: null,
              lease_until: null,
              last_error: endpoint ? 'endpoint_disabled' : 'endpoint_deleted',
              updated_at: at,
            },
            current.attempts,
          );
          return null;
        }
        const event = await loadEvent(tx, scope, delivery.event_id);
        return {
          delivery: current,
          url: endpoint.url,
          body: event.body,
          secrets: activeSecrets(endpoint.secrets, clock.now()).map((secret) => secret.secret),
        };
      });
    },

    async settle(delivery, outcome) {
      const scope: Scope = { account: delivery.account, environment: delivery.environment };
      await store.transaction(async (tx) => {
        const current = await tx.getWebhookDelivery(scope, delivery.id);
        // Another dispatcher (whose lease this one outlived) already recorded it.
        if (current?.status !== 'pending' || current.attempts !== delivery.attempts) return;
        const attempt = current.attempts + 1;
        await tx.appendWebhookAttempt({
          delivery_id: current.id,
          attempt,
          started_at: outcome.startedAt.toISOString(),
          status: outcome.status,
          latency_ms: outcome.latencyMs,
          error_code: outcome.error?.code ?? null,
          error_message: outcome.error?.message ?? null,
          response_excerpt: outcome.responseExcerpt,
        });
        const now = baseNow(scope.environment);
        const at = now.toISOString();
        const endpoint = await tx.getWebhookEndpoint(scope, current.endpoint_id);
        const base = { ...current, attempts: attempt, lease_until: null, updated_at: at };
        const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
        if (ok) {
          await tx.updateWebhookDelivery(
            {
              ...base,
              status: 'delivered',
              next_attempt_at: null,
              last_error: null,
              delivered_at: at,
            },
            current.attempts,
          );
          if (endpoint?.failing_since)
            await tx.updateWebhookEndpoint({ ...endpoint, failing_since: null });
          return;
        }
        const lastError = outcome.error?.code ?? `http_${outcome.status ?? 'error'}`;
        if (outcome.status === 410) {
          await tx.updateWebhookDelivery(
            { ...base, status: 'failed', next_attempt_at: null, last_error: 'gone' },
            current.attempts,
          );
          if (endpoint?.status === 'enabled') await disable(tx, scope, endpoint, 'gone', 410);
          return;
        }
        const scheduleAttempts = current.schedule_attempts + 1;
        const delay = retryDelayMs(schedule, scope.environment, scheduleAttempts, random);
        await tx.updateWebhookDelivery(
          delay === null
            ? {
                ...base,
                schedule_attempts: scheduleAttempts,
                status: 'failed',
                next_attempt_at: null,
                last_error: lastError,
              }
            : {
                ...base,
                schedule_attempts: scheduleAttempts,
                next_attempt_at: new Date(now.getTime() + delay).toISOString(),
                last_error: lastError,
              },
          current.attempts,
        );
        if (!endpoint) return;
        const failingSince = endpoint.failing_since ?? at;
        const consistentlyFailing =
          delay === null &&
          now.getTime() - new Date(failingSince).getTime() >= windowMs(scope.environment);
        if (consistentlyFailing && endpoint.status === 'enabled') {
          await disable(
            tx,
            scope,
            { ...endpoint, failing_since: failingSince },
            'consistent_failure',
            outcome.status,
          );
        } else if (endpoint.failing_since === null) {
          await tx.updateWebhookEndpoint({ ...endpoint, failing_since: failingSince });
        }
      });
    },

    nextAttemptAt: (environment) => store.transaction((tx) => tx.nextWebhookAttempt(environment)),

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  const webhooks: Webhooks = {
    outbox: webhookOutbox,

    async createEndpoint(scope, input) {
      const fields = validateEndpointFields(
        {
          url: input.url ?? '',
          enabled_events: input.enabled_events ?? ['*'],
          description: input.description ?? null,
        },
        { environment: scope.environment, allowLoopback },
      );
      const secret = generateWebhookSecret();
      const at = clock.now();
      const row = await store.transaction(async (tx) => {
        if ((await tx.listWebhookEndpoints(scope)).length >= maxEndpoints) {
          throw new EngineError(
            'webhook_endpoint_limit',
            `This account already has ${maxEndpoints} webhook endpoints in ${scope.environment}; delete one first.`,
          );
        }
        const endpoint: WebhookEndpointRow = {
          id: ids.webhookEndpoint(),
          account: scope.account,
          environment: scope.environment,
          url: fields.url!,
          description: fields.description ?? null,
          enabled_events: fields.enabled_events!,
          status: 'enabled',
          disabled_reason: null,
          disabled_at: null,
          secrets: [{ secret, created_at: at.toISOString(), expires_at: null }],
          failing_since: null,
          disabled_count: 0,
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        };
        await tx.insertWebhookEndpoint(endpoint);
        return endpoint;
      });
      return { ...toWebhookEndpointRecord(row, at), secret };
    },

    async listEndpoints(scope) {
      const now = clock.now();
      const rows = await store.transaction((tx) => tx.listWebhookEndpoints(scope));
      return rows.map((row) => toWebhookEndpointRecord(row, now));
    },

    async getEndpoint(scope, id) {
      const row = await store.transaction((tx) => loadEndpoint(tx, scope, id));
      return toWebhookEndpointRecord(row, clock.now());
    },

    async updateEndpoint(scope, id, input) {
      const fields = validateEndpointFields(input, {
        environment: scope.environment,
        allowLoopback,
      });
      const now = clock.now();
      const row = await store.transaction(async (tx) => {
        const endpoint = await loadEndpoint(tx, scope, id);
        let updated: WebhookEndpointRow = { ...endpoint, ...fields, updated_at: now.toISOString() };
        if (input.status === 'enabled' && endpoint.status === 'disabled') {
          updated = {
            ...updated,
            status: 'enabled',
            disabled_reason: null,
            disabled_at: null,
            failing_since: null,
          };
        }
        await tx.updateWebhookEndpoint(updated);
        if (input.status === 'disabled' && endpoint.status === 'enabled') {
          await disable(tx, scope, updated, 'requested', null);
          return (await tx.getWebhookEndpoint(scope, id))!;
        }
        return updated;
      });
      return toWebhookEndpointRecord(row, now);
    },

    async deleteEndpoint(scope, id) {
      const row = await store.transaction(async (tx) => {
        const endpoint = await loadEndpoint(tx, scope, id);
        await tx.deleteWebhookEndpoint(scope, id);
        return endpoint;
      });
      return toWebhookEndpointRecord(row, clock.now());
    },

    async rotateSecret(scope, id, input = {}) {
      const overlap = rotationOverlapSeconds(input.overlap_seconds);
      const secret = generateWebhookSecret();
      const now = clock.now();
      const at = now.toISOString();
      const until = new Date(now.getTime() + overlap * 1000).toISOString();
      const row = await store.transaction(async (tx) => {
        const endpoint = await loadEndpoint(tx, scope, id);
        const kept = endpoint.secrets
          .map((old) => ({
            ...old,
            expires_at: old.expires_at === null || old.expires_at > until ? until : old.expires_at,
          }))
          .filter((old) => old.expires_at > at);
        const rotated: WebhookEndpointRow = {
          ...endpoint,
          secrets: [{ secret, created_at: at, expires_at: null }, ...kept],
          updated_at: at,
        };
        await tx.updateWebhookEndpoint(rotated);
        return rotated;
      });
      return { ...toWebhookEndpointRecord(row, now), secret };
    },

    async listEvents(scope, query = {}) {
      const limit = Math.min(Math.max(query.limit ?? 10, 1), MAX_EVENT_LIST);
      return store.transaction(async (tx) => {
        const page = await tx.listWebhookEvents(scope, { ...query, limit });
        const data = await Promise.all(
          page.data.map(async (row) =>
            toEventRecord(row, await tx.listWebhookDeliveries(scope, row.id)),
          ),
        );
        return { data, has_more: page.has_more };
      });
    },

    getEvent(scope, id) {
      return store.transaction(async (tx) =>
        toEventRecord(await loadEvent(tx, scope, id), await tx.listWebhookDeliveries(scope, id)),
      );
    },

    listDeliveries(scope, eventId) {
      return store.transaction(async (tx) => {
        await loadEvent(tx, scope, eventId);
        return deliveriesWithAttempts(tx, scope, eventId);
      });
    },

    async redeliver(scope, eventId, input = {}) {
      const result = await store.transaction(async (tx) => {
        const event = await loadEvent(tx, scope, eventId);
        let targets: WebhookEndpointRow[];
        if (input.endpoint !== undefined) {
          const endpoint = await loadEndpoint(tx, scope, input.endpoint);
          if (endpoint.status === 'disabled') {
            throw new EngineError(
              'webhook_endpoint_disabled',
              `Webhook endpoint ${endpoint.id} is disabled (${endpoint.disabled_reason ?? 'requested'}); enable it first.`,
            );
          }
          targets = [endpoint];
        } else {
          const owed = new Set(
            (await tx.listWebhookDeliveries(scope, eventId)).map(
              (delivery) => delivery.endpoint_id,
            ),
          );
          targets = (await tx.listWebhookEndpoints(scope)).filter(
            (endpoint) =>
              endpoint.status === 'enabled' &&
              (owed.has(endpoint.id) || matchesEnabledEvents(endpoint.enabled_events, event.type)),
          );
        }
        if (targets.length === 0) {
          throw new EngineError(
            'no_webhook_endpoints',
            `No enabled webhook endpoint receives ${event.type}; register or enable one, or name one with "endpoint".`,
          );
        }
        const at = outbox.dueAt(scope);
        for (const endpoint of targets) {
          const existing = await tx.getWebhookDelivery(scope, deliveryId(event.id, endpoint.id));
          if (!existing) {
            await tx.insertWebhookDeliveries([pendingDelivery(event, endpoint.id, at)]);
            continue;
          }
          const requeued: WebhookDeliveryRow = {
            ...existing,
            status: 'pending',
            schedule_attempts: 0,
            next_attempt_at: at,
            lease_until: null,
            updated_at: at,
          };
          await tx.updateWebhookDelivery(requeued, existing.attempts);
        }
        return deliveriesWithAttempts(tx, scope, eventId);
      });
      outbox.enqueued();
      return result;
    },
  };
  return { webhooks, outbox };
}
