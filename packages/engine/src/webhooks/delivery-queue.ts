import { context as contextApi, ROOT_CONTEXT } from '@opentelemetry/api';
import type { RunEnvironment } from '@programrun/dsl';
import type { Scope } from '../store/store-v1.js';
import type { WebhookDeliveryRow } from '../store/webhook-spec.js';
import { attemptDelivery } from './delivery-attempt.js';
import { baseNow, disableEndpoint, loadEvent } from './endpoint-rows.js';
import { DEFAULT_RETRY_SCHEDULE, retryDelayMs } from './retry-schedule.js';
import { sealEndpoint } from './sealed-endpoint.js';
import { activeSecrets } from './webhook-secret.js';
import type { WebhooksContext } from './webhooks-context.js';

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
  /** The event's type (`program_run.completed`, …). */
  readonly eventType: string;
  /** The event's run; null for an account-level event. */
  readonly runId: string | null;
  /** The W3C `traceparent` of the event's run trace (delivery spans join it); null when none. */
  readonly traceContext: string | null;
}

/**
 * What settling an attempt did: `delivered`; `retry` (a next attempt is scheduled);
 * `failed` (no retry: the schedule is over, or the receiver answered 410); `dropped` (another
 * dispatcher, whose lease this one outlived, already recorded it).
 *
 * @example
 * ```ts
 * const settled = await engine.webhooks.deliveries.attempt(prepared, send);
 * if (settled === 'failed') console.warn(`no more retries of ${prepared.delivery.id}`);
 * ```
 */
export type DeliverySettled = 'delivered' | 'retry' | 'failed' | 'dropped';

/**
 * How many deliveries one account (and environment) or one endpoint may hold leased at
 * once, over every dispatcher sharing the store; absent: no cap.
 */
export interface DeliveryShares {
  readonly perAccount?: number;
  readonly perEndpoint?: number;
}

/** What a dispatcher uses: claim due deliveries, prepare them, and settle each attempt. */
export interface DeliveryQueue {
  /** Whether endpoint URLs may be loopback (the host's choice, see `WebhookOptions`). */
  readonly allowLoopback: boolean;
  /**
   * Leases up to `limit` due deliveries of an environment until `leaseUntil` (wall clock),
   * accounts taking turns, within the `shares` (see `claimWebhookDeliveries`).
   */
  claim(
    environment: RunEnvironment,
    limit: number,
    leaseNow: Date,
    leaseUntil: Date,
    shares?: DeliveryShares,
  ): Promise<WebhookDeliveryRow[]>;
  /**
   * The body and signing secrets of a claimed delivery, or null when it was settled
   * without sending (endpoint deleted → cancelled; endpoint disabled → failed).
   */
  prepare(delivery: WebhookDeliveryRow): Promise<PreparedDelivery | null>;
  /** Records an attempt and what follows: delivered, retried later, failed, endpoint disabled. */
  settle(delivery: WebhookDeliveryRow, outcome: AttemptOutcome): Promise<DeliverySettled>;
  /**
   * Makes one attempt of a prepared delivery and settles it, in a `programrun.webhook.deliver`
   * client span in the trace of the event's run: `send` makes the request while the span is
   * active (so the request can carry its `traceparent`) and says how it went. The attempt
   * and its duration are counted by environment and outcome.
   */
  attempt(
    prepared: PreparedDelivery,
    send: () => Promise<AttemptOutcome>,
  ): Promise<DeliverySettled>;
  /**
   * Gives back the lease of a claimed delivery that will not be attempted now (its
   * dispatcher is stopping; an attempt it aborted is not recorded): the delivery stays
   * pending, due as it was, free for any dispatcher at once. True when released; false when
   * it was settled meanwhile or is no longer held under this claim's lease.
   */
  release(delivery: WebhookDeliveryRow): Promise<boolean>;
  /** Earliest due time of the environment's pending deliveries (its base clock). */
  nextAttemptAt(environment: RunEnvironment): Promise<string | undefined>;
  /**
   * Calls `listener` after every commit that queued deliveries, in the root context (the
   * attempts it starts are in no request's span); returns the unsubscribe function.
   */
  subscribe(listener: () => void): () => void;
}

const scopeOf = (delivery: WebhookDeliveryRow): Scope => ({
  account: delivery.account,
  environment: delivery.environment,
});

/**
 * The delivery queue of an engine's webhooks.
 */
export function createDeliveryQueue(context: WebhooksContext): DeliveryQueue {
  const { engine, options, secretBox } = context;
  const { transactions } = engine;
  const schedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const random = options.random ?? Math.random;
  /** The shortest a whole retry schedule can take (all jitter low). */
  const windowMs = (environment: RunEnvironment): number =>
    schedule[environment].reduce((sum, seconds) => sum + seconds, 0) * 800;

  const queue: DeliveryQueue = {
    allowLoopback: context.allowLoopback,

    claim(environment, limit, leaseNow, leaseUntil, shares = {}) {
      return transactions.run(({ tx }) =>
        tx.claimWebhookDeliveries({
          environment,
          due_at: baseNow(context, environment).toISOString(),
          lease_now: leaseNow.toISOString(),
          lease_until: leaseUntil.toISOString(),
          limit,
          ...(shares.perAccount !== undefined ? { max_per_account: shares.perAccount } : {}),
          ...(shares.perEndpoint !== undefined ? { max_per_endpoint: shares.perEndpoint } : {}),
        }),
      );
    },

    prepare(delivery) {
      const scope = scopeOf(delivery);
      return transactions.run(async ({ tx }) => {
        const current = await tx.getWebhookDelivery(scope, delivery.id);
        if (current?.status !== 'pending' || current.attempts !== delivery.attempts) return null;
        const endpoint = await tx.getWebhookEndpoint(scope, delivery.endpoint_id);
        if (!endpoint || endpoint.status === 'disabled') {
          const at = engine.deliveries.dueAt(scope.environment);
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
          eventType: event.type,
          runId: event.run_id,
          traceContext: event.trace_context ?? null,
          secrets: await Promise.all(
            activeSecrets(endpoint.secrets, engine.liveClock.now()).map((secret) =>
              secretBox.open(secret.secret, endpoint),
            ),
          ),
        };
      });
    },

    settle(delivery, outcome) {
      const scope = scopeOf(delivery);
      return transactions.run(async (transaction): Promise<DeliverySettled> => {
        const { tx } = transaction;
        const current = await tx.getWebhookDelivery(scope, delivery.id);
        // Another dispatcher (whose lease this one outlived) already recorded it.
        if (current?.status !== 'pending' || current.attempts !== delivery.attempts)
          return 'dropped';
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
        const now = baseNow(context, scope.environment);
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
            await tx.updateWebhookEndpoint(
              await sealEndpoint(secretBox, { ...endpoint, failing_since: null }),
            );
          return 'delivered';
        }
        const lastError = outcome.error?.code ?? `http_${outcome.status ?? 'error'}`;
        if (outcome.status === 410) {
          await tx.updateWebhookDelivery(
            { ...base, status: 'failed', next_attempt_at: null, last_error: 'gone' },
            current.attempts,
          );
          if (endpoint?.status === 'enabled')
            await disableEndpoint(context, transaction, scope, endpoint, 'gone', 410);
          return 'failed';
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
        const settled = delay === null ? 'failed' : 'retry';
        if (!endpoint) return settled;
        const failingSince = endpoint.failing_since ?? at;
        const consistentlyFailing =
          delay === null &&
          now.getTime() - new Date(failingSince).getTime() >= windowMs(scope.environment);
        if (consistentlyFailing && endpoint.status === 'enabled') {
          await disableEndpoint(
            context,
            transaction,
            scope,
            { ...endpoint, failing_since: failingSince },
            'consistent_failure',
            outcome.status,
          );
        } else if (endpoint.failing_since === null) {
          await tx.updateWebhookEndpoint(
            await sealEndpoint(secretBox, { ...endpoint, failing_since: failingSince }),
          );
        }
        return settled;
      });
    },

    attempt(prepared, send) {
      return attemptDelivery(engine, prepared, send, (outcome) =>
        queue.settle(prepared.delivery, outcome),
      );
    },

    release(delivery) {
      return transactions.run(async ({ tx }) => {
        const current = await tx.getWebhookDelivery(scopeOf(delivery), delivery.id);
        const held =
          current?.status === 'pending' &&
          current.attempts === delivery.attempts &&
          current.lease_until !== null &&
          current.lease_until === delivery.lease_until;
        if (!held) return false;
        await tx.updateWebhookDelivery({ ...current, lease_until: null }, current.attempts);
        return true;
      });
    },

    nextAttemptAt: (environment) =>
      transactions.run(({ tx }) => tx.nextWebhookAttempt(environment)),

    subscribe: (listener) =>
      engine.deliveries.subscribe(() => contextApi.with(ROOT_CONTEXT, listener)),
  };
  return queue;
}
