import {
  StoreError,
  type Page,
  type Scope,
  type StoreTransactionV1,
  type WebhookAttemptRow,
  type WebhookClaim,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEventQuery,
  type WebhookEventRow,
} from '@programrun/engine';
import type { SqlExecutor } from '../sql/sql-database.js';
import { claimWebhookDeliveries } from './webhook-claim.js';
import {
  EVENT_COLUMNS,
  eventsWithRecords,
  withBodies,
  type EventWithRecord,
} from './event-bodies.js';
import { withTraceContext } from './trace-context-column.js';

type WebhookTables = Pick<
  StoreTransactionV1,
  | 'insertWebhookEndpoint'
  | 'getWebhookEndpoint'
  | 'listWebhookEndpoints'
  | 'updateWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'scanWebhookEndpoints'
  | 'insertWebhookEvents'
  | 'getWebhookEvent'
  | 'listWebhookEvents'
  | 'insertWebhookDeliveries'
  | 'getWebhookDelivery'
  | 'listWebhookDeliveries'
  | 'updateWebhookDelivery'
  | 'claimWebhookDeliveries'
  | 'nextWebhookAttempt'
  | 'countPendingWebhookDeliveries'
  | 'appendWebhookAttempt'
  | 'listWebhookAttempts'
>;

const ENDPOINT_COLUMNS =
  'id, account, environment, url, description, enabled_events, status, disabled_reason, disabled_at, secrets, failing_since, disabled_count, created_at, updated_at';
const DELIVERY_COLUMNS =
  'id, event_id, endpoint_id, account, environment, status, attempts, schedule_attempts, next_attempt_at, lease_until, last_error, created_at, updated_at, delivered_at';
const ATTEMPT_COLUMNS =
  'delivery_id, attempt, started_at, status, latency_ms, error_code, error_message, response_excerpt';

const endpointParams = (endpoint: WebhookEndpointRow): unknown[] => [
  endpoint.id,
  endpoint.account,
  endpoint.environment,
  endpoint.url,
  endpoint.description,
  JSON.stringify(endpoint.enabled_events),
  endpoint.status,
  endpoint.disabled_reason,
  endpoint.disabled_at,
  JSON.stringify(endpoint.secrets),
  endpoint.failing_since,
  endpoint.disabled_count,
  endpoint.created_at,
  endpoint.updated_at,
];

/** The derived delivery status of event `e`: none, pending, failed (none pending) or delivered. */
const DELIVERY_STATUS = (schema: string) => `(
  SELECT CASE
    WHEN count(*) = 0 THEN 'none'
    WHEN bool_or(d.status = 'pending') THEN 'pending'
    WHEN bool_or(d.status = 'failed') THEN 'failed'
    ELSE 'delivered' END
  FROM ${schema}.webhook_deliveries d WHERE d.event_id = e.id AND d.status <> 'cancelled')`;

/**
 * Webhook endpoints and the transactional outbox. Events keep their insertion order in
 * `position` (lists are newest first); deliveries change by compare-and-swap on
 * `attempts`, and dispatchers lease due ones with `FOR UPDATE SKIP LOCKED`, fairly across
 * accounts and endpoints (`webhook-claim.ts`).
 */
export function webhookTables(sql: SqlExecutor, schema: string): WebhookTables {
  return {
    async insertWebhookEndpoint(endpoint: WebhookEndpointRow) {
      await sql.query(
        `INSERT INTO ${schema}.webhook_endpoints (${ENDPOINT_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        endpointParams(endpoint),
      );
    },

    async getWebhookEndpoint(scope: Scope, id: string) {
      const { rows } = await sql.query<WebhookEndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM ${schema}.webhook_endpoints
         WHERE id = $1 AND account = $2 AND environment = $3`,
        [id, scope.account, scope.environment],
      );
      return rows[0];
    },

    async listWebhookEndpoints(scope: Scope) {
      const { rows } = await sql.query<WebhookEndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM ${schema}.webhook_endpoints
         WHERE account = $1 AND environment = $2 ORDER BY position`,
        [scope.account, scope.environment],
      );
      return rows;
    },

    async updateWebhookEndpoint(endpoint: WebhookEndpointRow) {
      const { rowCount } = await sql.query(
        `UPDATE ${schema}.webhook_endpoints SET url = $4, description = $5, enabled_events = $6,
           status = $7, disabled_reason = $8, disabled_at = $9, secrets = $10,
           failing_since = $11, disabled_count = $12, created_at = $13, updated_at = $14
         WHERE id = $1 AND account = $2 AND environment = $3`,
        endpointParams(endpoint),
      );
      if (rowCount !== 1) {
        throw new StoreError('not_found', `webhook endpoint ${endpoint.id} does not exist`);
      }
    },

    async deleteWebhookEndpoint(scope: Scope, id: string) {
      await sql.query(
        `DELETE FROM ${schema}.webhook_endpoints WHERE id = $1 AND account = $2 AND environment = $3`,
        [id, scope.account, scope.environment],
      );
    },

    async scanWebhookEndpoints(after: string, limit: number) {
      const { rows } = await sql.query<WebhookEndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM ${schema}.webhook_endpoints
         WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, limit],
      );
      return rows;
    },

    async insertWebhookEvents(events: readonly WebhookEventRow[]) {
      if (events.length === 0) return;
      // WITH ORDINALITY keeps the events' order in `position` (the list order).
      await sql.query(
        `INSERT INTO ${schema}.webhook_events (${EVENT_COLUMNS})
         SELECT ${EVENT_COLUMNS} FROM json_populate_recordset(NULL::${schema}.webhook_events, $1::json)
           WITH ORDINALITY AS e ORDER BY ordinality`,
        [JSON.stringify(events)],
      );
    },

    async getWebhookEvent(scope: Scope, id: string) {
      const { rows } = await sql.query<EventWithRecord>(
        `${eventsWithRecords(schema)}
         WHERE e.id = $1 AND e.account = $2 AND e.environment = $3`,
        [id, scope.account, scope.environment],
      );
      return withTraceContext(withBodies(rows))[0];
    },

    async listWebhookEvents(
      scope: Scope,
      query: WebhookEventQuery,
    ): Promise<Page<WebhookEventRow>> {
      const params: unknown[] = [scope.account, scope.environment];
      const where = ['e.account = $1', 'e.environment = $2'];
      const filter = (clause: (placeholder: string) => string, value: unknown) => {
        params.push(value);
        where.push(clause(`$${params.length}`));
      };
      if (query.type !== undefined) filter((p) => `e.type = ${p}`, query.type);
      if (query.run_id !== undefined) filter((p) => `e.run_id = ${p}`, query.run_id);
      if (query.delivery_status !== undefined) {
        filter((p) => `${DELIVERY_STATUS(schema)} = ${p}`, query.delivery_status);
      }
      if (query.starting_after !== undefined) {
        // Any event of the scope is a cursor; one outside it yields an empty page.
        filter(
          (p) =>
            `e.position < (SELECT position FROM ${schema}.webhook_events c
               WHERE c.id = ${p} AND c.account = $1 AND c.environment = $2)`,
          query.starting_after,
        );
      }
      params.push(query.limit + 1);
      const { rows } = await sql.query<EventWithRecord>(
        `${eventsWithRecords(schema)}
         WHERE ${where.join(' AND ')} ORDER BY e.position DESC LIMIT $${params.length}`,
        params,
      );
      return {
        data: withTraceContext(withBodies(rows.slice(0, query.limit))),
        has_more: rows.length > query.limit,
      };
    },

    async insertWebhookDeliveries(deliveries: readonly WebhookDeliveryRow[]) {
      if (deliveries.length === 0) return;
      await sql.query(
        `INSERT INTO ${schema}.webhook_deliveries (${DELIVERY_COLUMNS})
         SELECT ${DELIVERY_COLUMNS} FROM json_populate_recordset(NULL::${schema}.webhook_deliveries, $1::json)`,
        [JSON.stringify(deliveries)],
      );
    },

    async getWebhookDelivery(scope: Scope, id: string) {
      const { rows } = await sql.query<WebhookDeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM ${schema}.webhook_deliveries
         WHERE id = $1 AND account = $2 AND environment = $3`,
        [id, scope.account, scope.environment],
      );
      return rows[0];
    },

    async listWebhookDeliveries(scope: Scope, eventId: string) {
      const { rows } = await sql.query<WebhookDeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM ${schema}.webhook_deliveries
         WHERE event_id = $1 AND account = $2 AND environment = $3 ORDER BY endpoint_id`,
        [eventId, scope.account, scope.environment],
      );
      return rows;
    },

    async updateWebhookDelivery(delivery: WebhookDeliveryRow, expectedAttempts: number) {
      const { rowCount } = await sql.query(
        `UPDATE ${schema}.webhook_deliveries SET status = $2, attempts = $3,
           schedule_attempts = $4, next_attempt_at = $5, lease_until = $6, last_error = $7,
           updated_at = $8, delivered_at = $9
         WHERE id = $1 AND attempts = $10`,
        [
          delivery.id,
          delivery.status,
          delivery.attempts,
          delivery.schedule_attempts,
          delivery.next_attempt_at,
          delivery.lease_until,
          delivery.last_error,
          delivery.updated_at,
          delivery.delivered_at,
          expectedAttempts,
        ],
      );
      if (rowCount === 1) return;
      const { rows } = await sql.query<{ attempts: number }>(
        `SELECT attempts FROM ${schema}.webhook_deliveries WHERE id = $1`,
        [delivery.id],
      );
      if (rows.length === 0) {
        throw new StoreError('not_found', `delivery ${delivery.id} does not exist`);
      }
      throw new StoreError(
        'version_conflict',
        `delivery ${delivery.id} has ${rows[0]!.attempts} attempts, not ${expectedAttempts}`,
      );
    },

    claimWebhookDeliveries: (claim: WebhookClaim) =>
      claimWebhookDeliveries(sql, schema, DELIVERY_COLUMNS.split(', '), claim),

    async nextWebhookAttempt(environment) {
      const { rows } = await sql.query<{ next_attempt_at: string }>(
        `SELECT next_attempt_at FROM ${schema}.webhook_deliveries
         WHERE status = 'pending' AND environment = $1 AND next_attempt_at IS NOT NULL
         ORDER BY next_attempt_at LIMIT 1`,
        [environment],
      );
      return rows[0]?.next_attempt_at;
    },

    async countPendingWebhookDeliveries(environment) {
      // Answered from the partial index of pending deliveries (webhook_deliveries_due).
      const { rows } = await sql.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM ${schema}.webhook_deliveries
         WHERE status = 'pending' AND environment = $1`,
        [environment],
      );
      return Number(rows[0]?.pending ?? 0);
    },

    async appendWebhookAttempt(attempt: WebhookAttemptRow) {
      await sql.query(
        `INSERT INTO ${schema}.webhook_attempts (${ATTEMPT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          attempt.delivery_id,
          attempt.attempt,
          attempt.started_at,
          attempt.status,
          attempt.latency_ms,
          attempt.error_code,
          attempt.error_message,
          attempt.response_excerpt,
        ],
      );
    },

    async listWebhookAttempts(deliveryId: string) {
      const { rows } = await sql.query<WebhookAttemptRow>(
        `SELECT ${ATTEMPT_COLUMNS} FROM ${schema}.webhook_attempts WHERE delivery_id = $1
         ORDER BY attempt`,
        [deliveryId],
      );
      return rows;
    },
  };
}
