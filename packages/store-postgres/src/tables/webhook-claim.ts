import type { WebhookClaim, WebhookDeliveryRow } from '@programrun/engine';
import type { SqlExecutor } from '../sql/sql-database.js';

/**
 * The fair claim of `claimWebhookDeliveries` in one statement ($1 environment, $2 due_at,
 * $3 lease_now, $4 limit, $5 max_per_account, $6 max_per_endpoint, $7 lease_until):
 *
 * - `endpoints`: each (account, endpoint) with pending deliveries, by a skip scan of
 *   `webhook_deliveries_by_endpoint` (one index probe per endpoint, however long its backlog);
 * - `busy`: deliveries each endpoint holds leased (`webhook_deliveries_leased`);
 * - `offered`: each endpoint's earliest due free deliveries, up to its remaining share,
 *   ranked within their account;
 * - `chosen`: each account's remaining share of those, lowest turn (in flight + rank) first;
 * - `locked`: what no other transaction is claiming (`FOR UPDATE SKIP LOCKED`, the lease
 *   checked again on the row as locked), then leased.
 */
const claimStatement = (schema: string, columns: string): string => `
WITH RECURSIVE endpoints AS (
  (SELECT account, endpoint_id FROM ${schema}.webhook_deliveries
   WHERE status = 'pending' AND environment = $1
   ORDER BY account, endpoint_id LIMIT 1)
  UNION ALL
  SELECT following.account, following.endpoint_id FROM endpoints previous
  CROSS JOIN LATERAL (
    SELECT account, endpoint_id FROM ${schema}.webhook_deliveries
    WHERE status = 'pending' AND environment = $1
      AND (account, endpoint_id) > (previous.account, previous.endpoint_id)
    ORDER BY account, endpoint_id LIMIT 1
  ) following
),
busy AS (
  SELECT account, endpoint_id, count(*)::int AS held FROM ${schema}.webhook_deliveries
  WHERE status = 'pending' AND environment = $1 AND lease_until IS NOT NULL AND lease_until > $3
  GROUP BY account, endpoint_id
),
busy_accounts AS (
  SELECT account, sum(held)::int AS held FROM busy GROUP BY account
),
offered AS (
  SELECT o.id, o.account, o.next_attempt_at,
    row_number() OVER (PARTITION BY o.account ORDER BY o.next_attempt_at, o.id) AS rank
  FROM endpoints e
  LEFT JOIN busy b ON b.account = e.account AND b.endpoint_id = e.endpoint_id
  CROSS JOIN LATERAL (
    SELECT id, account, next_attempt_at FROM ${schema}.webhook_deliveries
    WHERE status = 'pending' AND environment = $1
      AND account = e.account AND endpoint_id = e.endpoint_id
      AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until <= $3)
    ORDER BY next_attempt_at, id
    LIMIT CASE WHEN $6::int IS NULL THEN $4::int
      ELSE greatest(0, least($4::int, $6::int - coalesce(b.held, 0))) END
  ) o
),
chosen AS (
  SELECT o.id FROM offered o
  LEFT JOIN busy_accounts a ON a.account = o.account
  WHERE $5::int IS NULL OR o.rank <= $5::int - coalesce(a.held, 0)
  ORDER BY coalesce(a.held, 0) + o.rank, o.next_attempt_at, o.id
  LIMIT $4::int
),
locked AS (
  SELECT d.id FROM ${schema}.webhook_deliveries d
  WHERE d.id IN (SELECT id FROM chosen) AND d.status = 'pending'
    AND (d.lease_until IS NULL OR d.lease_until <= $3)
  FOR UPDATE SKIP LOCKED
)
UPDATE ${schema}.webhook_deliveries AS d SET lease_until = $7
FROM locked WHERE d.id = locked.id
RETURNING ${columns}`;

const byDueThenId = (a: WebhookDeliveryRow, b: WebhookDeliveryRow): number =>
  a.next_attempt_at === b.next_attempt_at
    ? a.id < b.id
      ? -1
      : 1
    : (a.next_attempt_at ?? '') < (b.next_attempt_at ?? '')
      ? -1
      : 1;

/**
 * Leases due deliveries with fair shares across accounts and endpoints (see
 * `WebhookOperations.claimWebhookDeliveries`); returns them earliest due first.
 */
export async function claimWebhookDeliveries(
  sql: SqlExecutor,
  schema: string,
  columns: readonly string[],
  claim: WebhookClaim,
): Promise<WebhookDeliveryRow[]> {
  if (claim.limit <= 0) return [];
  const { rows } = await sql.query<WebhookDeliveryRow>(
    claimStatement(schema, columns.map((column) => `d.${column}`).join(', ')),
    [
      claim.environment,
      claim.due_at,
      claim.lease_now,
      claim.limit,
      claim.max_per_account ?? null,
      claim.max_per_endpoint ?? null,
      claim.lease_until,
    ],
  );
  return rows.sort(byDueThenId);
}
