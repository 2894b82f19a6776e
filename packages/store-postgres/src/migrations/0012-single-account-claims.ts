import type { Migration } from './migration.js';
import {
  claimFunctionSignature,
  fairClaimQuery,
  partyClaimLock,
} from './0011-one-statement-claims.js';

/**
 * A cheaper claim when one account has the party's queued jobs, the usual case: the fair
 * claim's one statement (turns over every account, ranks, windows; about 1.1 ms of
 * executor time on PostgreSQL 17 however few jobs it leases, and re-planned on every call
 * when the table holds many closed jobs) becomes three index probes and one update. Under
 * the same lock, `claim_handoff_jobs(…)` finds the first account with queued jobs of the
 * party (or takes the account the claim is for); when no other account has any, it counts the party's calls in flight (all that
 * account's, or other accounts' when the claim is for one account), leases that account's
 * earliest due jobs within the cap and the account's share, and remembers the account's
 * turn as the fair claim does. With two or more accounts queued it is the fair claim,
 * unchanged. Same signature, same lock key, same results: hosts on version 11 and 12
 * claiming at once still take turns.
 */
export const singleAccountClaimsMigration: Migration = {
  version: 12,
  name: 'single_account_claims',
  sql: (schema) => `
CREATE OR REPLACE FUNCTION ${schema}.${claimFunctionSignature(schema)}DECLARE
  v_account text;
  v_other text;
  v_in_flight integer;
  v_held integer;
  v_take integer;
BEGIN
  IF p_limit <= 0 THEN
    RETURN;
  END IF;
${partyClaimLock(schema)}  IF p_account IS NULL THEN
    SELECT q.account INTO v_account FROM ${schema}.handoff_jobs q
    WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = p_party
    ORDER BY q.party, q.account LIMIT 1;
    IF NOT FOUND THEN
      RETURN;
    END IF;
    SELECT q.account INTO v_other FROM ${schema}.handoff_jobs q
    WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = p_party
      AND q.account > v_account
    ORDER BY q.party, q.account LIMIT 1;
    IF FOUND THEN
      RETURN QUERY
${fairClaimQuery(schema)}      RETURN;
    END IF;
  ELSE
    v_account := p_account;
  END IF;
  SELECT count(*)::int, (count(*) FILTER (WHERE q.account = v_account))::int
  INTO v_in_flight, v_held
  FROM ${schema}.handoff_jobs q
  WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = p_party
    AND q.lease_until IS NOT NULL AND q.lease_until > p_now
    AND NOT (q.lease_owner = p_owner AND q.id = ANY(coalesce(p_ended, '{}'::text[])));
  v_take := CASE WHEN p_cap IS NULL THEN p_limit
    ELSE greatest(0, least(p_limit, p_cap - v_in_flight)) END;
  IF p_share IS NOT NULL THEN
    v_take := least(v_take, p_share - v_held);
  END IF;
  IF v_take <= 0 THEN
    RETURN;
  END IF;
  RETURN QUERY
  WITH locked AS (
    SELECT q.id FROM ${schema}.handoff_jobs q
    WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = p_party
      AND q.account = v_account
      AND q.next_attempt_at <= p_due AND (q.lease_until IS NULL OR q.lease_until <= p_now)
    ORDER BY q.party, q.account, q.next_attempt_at, q.id
    LIMIT v_take
    FOR UPDATE SKIP LOCKED
  ),
  leased AS (
    UPDATE ${schema}.handoff_jobs AS j
    SET calls = j.calls + 1, lease_owner = p_owner, lease_until = p_until
    WHERE j.id = ANY(ARRAY(SELECT id FROM locked))
    RETURNING j.*
  ),
  top AS (
    SELECT coalesce(max(last_claim), 0) AS last_claim FROM ${schema}.handoff_claim_turns
    WHERE environment = p_environment AND party = p_party
  ),
  remembered AS (
    INSERT INTO ${schema}.handoff_claim_turns (environment, party, account, last_claim)
    SELECT p_environment, p_party, v_account, tp.last_claim + 1
    FROM top tp WHERE EXISTS (SELECT 1 FROM leased)
    ON CONFLICT (environment, party, account) DO UPDATE SET last_claim = excluded.last_claim
  )
  SELECT * FROM leased;
END
$claim$;
`,
};
