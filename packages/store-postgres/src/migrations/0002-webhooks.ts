import type { Migration } from './migration.js';

/**
 * Webhook endpoints and the transactional outbox: events (the exact delivered bytes),
 * one delivery per event and endpoint, and every HTTP attempt.
 */
export const webhooksMigration: Migration = {
  version: 2,
  name: 'webhooks',
  sql: (schema) => `
CREATE TABLE ${schema}.webhook_endpoints (
  id text PRIMARY KEY,
  account text NOT NULL,
  environment text NOT NULL,
  url text NOT NULL,
  description text,
  enabled_events json NOT NULL,
  status text NOT NULL,
  disabled_reason text,
  disabled_at text,
  secrets json NOT NULL,
  failing_since text,
  disabled_count integer NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  position bigserial NOT NULL
);
CREATE INDEX webhook_endpoints_by_scope ON ${schema}.webhook_endpoints (account, environment, position);

CREATE TABLE ${schema}.webhook_events (
  id text PRIMARY KEY,
  account text NOT NULL,
  environment text NOT NULL,
  type text NOT NULL,
  created text NOT NULL,
  run_id text,
  sequence integer,
  body text NOT NULL,
  position bigserial NOT NULL UNIQUE
);
CREATE INDEX webhook_events_newest ON ${schema}.webhook_events (account, environment, position DESC);
CREATE INDEX webhook_events_by_type ON ${schema}.webhook_events (account, environment, type, position DESC);
CREATE INDEX webhook_events_by_run ON ${schema}.webhook_events (account, environment, run_id, position DESC);

CREATE TABLE ${schema}.webhook_deliveries (
  id text PRIMARY KEY,
  event_id text NOT NULL,
  endpoint_id text NOT NULL,
  account text NOT NULL,
  environment text NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL,
  schedule_attempts integer NOT NULL,
  next_attempt_at text,
  lease_until text,
  last_error text,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  delivered_at text
);
CREATE INDEX webhook_deliveries_by_event ON ${schema}.webhook_deliveries (event_id, endpoint_id);
CREATE INDEX webhook_deliveries_due ON ${schema}.webhook_deliveries (environment, next_attempt_at, id)
  WHERE status = 'pending';

CREATE TABLE ${schema}.webhook_attempts (
  delivery_id text NOT NULL,
  attempt integer NOT NULL,
  started_at text NOT NULL,
  status integer,
  latency_ms integer NOT NULL,
  error_code text,
  error_message text,
  response_excerpt text,
  PRIMARY KEY (delivery_id, attempt)
);
`,
};
