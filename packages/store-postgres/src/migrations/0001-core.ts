import type { Migration } from './migration.js';

/**
 * Runs, their lifecycle records and timers, API keys, issuer activations, test clocks,
 * access requests and Idempotency-Key records. Times are ISO-8601 UTC text exactly as
 * the engine writes them (`2026-01-01T00:00:00.000Z`), so they sort as they compare;
 * documents are `json` (kept byte for byte, key order included).
 */
export const coreMigration: Migration = {
  version: 1,
  name: 'core',
  sql: (schema) => `
CREATE TABLE ${schema}.runs (
  id text PRIMARY KEY,
  account text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  version integer NOT NULL CHECK (version > 0),
  scenario_id text NOT NULL,
  status text NOT NULL,
  created_at text NOT NULL,
  idempotency_key text,
  snapshot json,
  last_sequence integer NOT NULL,
  record json NOT NULL
);
CREATE UNIQUE INDEX runs_idempotency_key ON ${schema}.runs (account, environment, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX runs_newest ON ${schema}.runs (account, environment, created_at DESC, id DESC);
CREATE INDEX runs_by_status ON ${schema}.runs (account, environment, status, created_at DESC, id DESC);
CREATE INDEX runs_by_scenario ON ${schema}.runs (account, environment, scenario_id, created_at DESC, id DESC);

CREATE TABLE ${schema}.lifecycle_records (
  run_id text NOT NULL,
  sequence integer NOT NULL,
  account text NOT NULL,
  environment text NOT NULL,
  record json NOT NULL,
  PRIMARY KEY (run_id, sequence)
);

CREATE TABLE ${schema}.timers (
  id text PRIMARY KEY,
  run_id text NOT NULL,
  account text NOT NULL,
  environment text NOT NULL,
  kind text NOT NULL,
  step text NOT NULL,
  attempt integer NOT NULL,
  due_at text NOT NULL,
  payload json NOT NULL,
  status text NOT NULL
);
CREATE INDEX timers_pending_by_run ON ${schema}.timers (run_id) WHERE status = 'pending';
CREATE INDEX timers_due ON ${schema}.timers (environment, due_at, id) WHERE status = 'pending';
CREATE INDEX timers_due_by_account ON ${schema}.timers (environment, account, due_at, id)
  WHERE status = 'pending';

CREATE TABLE ${schema}.api_keys (
  id text PRIMARY KEY,
  account text NOT NULL,
  environment text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  last4 text NOT NULL,
  description text,
  created_at text NOT NULL,
  revoked_at text
);
CREATE INDEX api_keys_by_account ON ${schema}.api_keys (account, created_at, id);

CREATE TABLE ${schema}.issuer_activations (
  account text NOT NULL,
  scenario text NOT NULL,
  status text NOT NULL,
  reference text NOT NULL,
  activated_at text NOT NULL,
  revoked_at text,
  PRIMARY KEY (account, scenario)
);

CREATE TABLE ${schema}.test_clocks (
  account text PRIMARY KEY,
  offset_ms bigint NOT NULL,
  updated_at text NOT NULL
);

CREATE TABLE ${schema}.access_requests (
  account text NOT NULL,
  environment text NOT NULL,
  session_id text NOT NULL,
  id text NOT NULL UNIQUE,
  name text NOT NULL,
  email text NOT NULL,
  company text NOT NULL,
  use_case text NOT NULL,
  created_at text NOT NULL,
  PRIMARY KEY (account, environment, session_id)
);

CREATE TABLE ${schema}.idempotency_keys (
  account text NOT NULL,
  environment text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL,
  response json,
  locked_until text NOT NULL,
  created_at text NOT NULL,
  expires_at text NOT NULL,
  PRIMARY KEY (account, environment, key)
);
CREATE INDEX idempotency_keys_expiry ON ${schema}.idempotency_keys (expires_at);
`,
};
