import type { Migration } from './migration.js';

/**
 * Fair webhook claims: dispatchers visit each endpoint with pending deliveries (a skip
 * scan over account and endpoint) and take its earliest due ones, and count the
 * deliveries each account and endpoint holds leased; both read from an index.
 */
export const webhookFairClaimsMigration: Migration = {
  version: 5,
  name: 'webhook_fair_claims',
  sql: (schema) => `
CREATE INDEX webhook_deliveries_by_endpoint
  ON ${schema}.webhook_deliveries (environment, account, endpoint_id, next_attempt_at, id)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased
  ON ${schema}.webhook_deliveries (environment, lease_until)
  WHERE status = 'pending' AND lease_until IS NOT NULL;
`,
};
