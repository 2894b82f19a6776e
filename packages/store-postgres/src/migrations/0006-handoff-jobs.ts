import type { Migration } from './migration.js';

/**
 * Durable handoff jobs: one row per handoff request whose party has a connector, claimed
 * by the workers of every host under a lease. Partial indexes on queued jobs serve the
 * claim (a skip scan over party and account, then each one's earliest due), the leases
 * counted against a party's `max_in_flight`, and the next due job per environment or
 * account; open jobs by account and party serve the partners' loads.
 *
 * `handoff_claim_turns` is the claims' memory of turns: each (environment, party,
 * account)'s last claim, a claim sequence of the party (the party's greatest, plus one per
 * account served, in the order their turns ended). Claims break ties between equal turns
 * by it (longest ago first), so accounts with due jobs are served round robin even at a
 * concurrency of 1. One row per account a party ever served; never purged.
 */
export const handoffJobsMigration: Migration = {
  version: 6,
  name: 'handoff_jobs',
  sql: (schema) => `
CREATE TABLE ${schema}.handoff_jobs (
  id text PRIMARY KEY,
  run_id text NOT NULL,
  account text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  party text NOT NULL,
  step text NOT NULL,
  attempt integer NOT NULL,
  idempotency_key text NOT NULL,
  request json NOT NULL,
  deadline text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'accepted', 'exhausted', 'closed')),
  calls integer NOT NULL,
  next_attempt_at text NOT NULL,
  lease_owner text,
  lease_until text,
  last_error json,
  created_at text NOT NULL,
  updated_at text NOT NULL
);
CREATE INDEX handoff_jobs_by_run ON ${schema}.handoff_jobs (run_id, step, attempt);
CREATE INDEX handoff_jobs_queued_by_party
  ON ${schema}.handoff_jobs (environment, party, account, next_attempt_at, id)
  WHERE status = 'queued';
CREATE INDEX handoff_jobs_queued_by_account
  ON ${schema}.handoff_jobs (environment, account, next_attempt_at, id)
  WHERE status = 'queued';
CREATE INDEX handoff_jobs_due ON ${schema}.handoff_jobs (environment, next_attempt_at, id)
  WHERE status = 'queued';
CREATE INDEX handoff_jobs_leased ON ${schema}.handoff_jobs (environment, party, lease_until)
  WHERE status = 'queued' AND lease_until IS NOT NULL;
CREATE INDEX handoff_jobs_open ON ${schema}.handoff_jobs (environment, account, party)
  WHERE status <> 'closed';
CREATE TABLE ${schema}.handoff_claim_turns (
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  party text NOT NULL,
  account text NOT NULL,
  last_claim bigint NOT NULL,
  PRIMARY KEY (environment, party, account)
);
CREATE INDEX handoff_claim_turns_latest
  ON ${schema}.handoff_claim_turns (environment, party, last_claim);
`,
};
