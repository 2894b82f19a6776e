import type { Migration } from './migration.js';

/**
 * A party's claim of handoff jobs in one statement: `claim_handoff_jobs(…)` takes the
 * party's advisory lock and then claims, as two statements of one function, so the claim
 * reads the leases the previous holder of the lock committed (at READ COMMITTED each
 * statement of a function takes its own snapshot, and the claim's is taken after the lock
 * is granted). Called by itself it is its own transaction: one round trip, where BEGIN,
 * the lock, the claim and COMMIT were four. Inside a transaction the lock is held until its
 * COMMIT, as before.
 *
 * The claim is the one `handoff-job-claim.ts` documents (the fair claim: each account's
 * earliest due jobs on turns, within the party's `max_in_flight` and `max_per_account`,
 * remembering the turns), with two additions: an optional account, and `p_ended`, the
 * claimer's jobs whose calls are over while their results are being written, which do not
 * count in flight. The lock key is the one the claims of earlier versions take, so hosts of
 * both versions claiming at once still take turns.
 */
/**
 * The claim function's name, parameters and result, after `${schema}.`, as the claim
 * functions declare it (the body follows).
 */
export const claimFunctionSignature = (schema: string): string => `claim_handoff_jobs(
  p_environment text, p_party text, p_account text, p_due text, p_now text,
  p_limit integer, p_cap integer, p_share integer, p_owner text, p_until text,
  p_ended text[]
) RETURNS SETOF ${schema}.handoff_jobs
LANGUAGE plpgsql VOLATILE AS $claim$
`;

/**
 * The statement that takes a party's claim lock (the key every version's claims take), as
 * the claim functions write it.
 */
export const partyClaimLock = (
  schema: string,
): string => `  PERFORM pg_advisory_xact_lock(hashtextextended(
    'programrun:handoff-claim:' || '${schema.replaceAll("'", "''")}' || ':' || p_environment || ':' || p_party, 0));
`;

/**
 * The fair claim of `claim_handoff_jobs` (version 11) as the function's `RETURN QUERY`
 * writes it, over the function's parameters: every account with queued jobs of the party
 * on turns, within the cap and the per-account share, remembering the turns.
 */
export const fairClaimQuery = (schema: string): string => `  WITH RECURSIVE groups AS (
    (SELECT q.party, q.account FROM ${schema}.handoff_jobs q
     WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = p_party
       AND (p_account IS NULL OR q.account = p_account)
     ORDER BY q.party, q.account LIMIT 1)
    UNION ALL
    SELECT following.party, following.account FROM groups previous
    CROSS JOIN LATERAL (
      SELECT q.party, q.account FROM ${schema}.handoff_jobs q
      WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = p_party
        AND (p_account IS NULL OR q.account = p_account)
        AND (q.party, q.account) > (previous.party, previous.account)
      ORDER BY q.party, q.account LIMIT 1
    ) following
  ),
  busy AS (
    SELECT q.account, count(*)::int AS held FROM ${schema}.handoff_jobs q
    WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = p_party
      AND q.lease_until IS NOT NULL AND q.lease_until > p_now
      AND NOT (q.lease_owner = p_owner AND q.id = ANY(coalesce(p_ended, '{}'::text[])))
    GROUP BY q.account
  ),
  room AS (
    SELECT CASE WHEN p_cap IS NULL THEN p_limit
      ELSE greatest(0, least(p_limit, p_cap - coalesce(sum(held), 0)::int)) END AS size
    FROM busy
  ),
  offered AS (
    SELECT o.id, o.account, o.next_attempt_at,
      row_number() OVER (PARTITION BY o.account ORDER BY o.next_attempt_at, o.id) AS rank
    FROM groups g CROSS JOIN room r
    CROSS JOIN LATERAL (
      SELECT q.id, q.account, q.next_attempt_at FROM ${schema}.handoff_jobs q
      WHERE q.status = 'queued' AND q.environment = p_environment AND q.party = g.party
        AND q.account = g.account
        AND q.next_attempt_at <= p_due AND (q.lease_until IS NULL OR q.lease_until <= p_now)
      ORDER BY q.next_attempt_at, q.id
      LIMIT r.size
    ) o
  ),
  chosen AS (
    SELECT o.id, o.account,
      row_number() OVER (
        ORDER BY coalesce(b.held, 0) + o.rank, t.last_claim NULLS FIRST, o.next_attempt_at, o.id
      ) AS position
    FROM offered o
    LEFT JOIN busy b ON b.account = o.account
    LEFT JOIN ${schema}.handoff_claim_turns t
      ON t.environment = p_environment AND t.party = p_party AND t.account = o.account
    WHERE p_share IS NULL OR o.rank <= p_share - coalesce(b.held, 0)
    ORDER BY position
    LIMIT (SELECT size FROM room)
  ),
  locked AS (
    SELECT j.id FROM chosen c CROSS JOIN LATERAL (
      SELECT q.id FROM ${schema}.handoff_jobs q
      WHERE q.id = c.id AND q.status = 'queued' AND (q.lease_until IS NULL OR q.lease_until <= p_now)
      FOR UPDATE SKIP LOCKED
    ) j
  ),
  leased AS (
    UPDATE ${schema}.handoff_jobs AS j
    SET calls = j.calls + 1, lease_owner = p_owner, lease_until = p_until
    FROM locked WHERE j.id = locked.id
    RETURNING j.*
  ),
  served AS (
    SELECT c.account, row_number() OVER (ORDER BY max(c.position)) AS turn
    FROM chosen c JOIN locked l ON l.id = c.id
    GROUP BY c.account
  ),
  top AS (
    SELECT coalesce(max(last_claim), 0) AS last_claim FROM ${schema}.handoff_claim_turns
    WHERE environment = p_environment AND party = p_party
  ),
  remembered AS (
    INSERT INTO ${schema}.handoff_claim_turns (environment, party, account, last_claim)
    SELECT p_environment, p_party, s.account, tp.last_claim + s.turn
    FROM served s CROSS JOIN top tp
    ORDER BY s.account
    ON CONFLICT (environment, party, account) DO UPDATE SET last_claim = excluded.last_claim
  )
  SELECT * FROM leased;
`;

export const oneStatementClaimsMigration: Migration = {
  version: 11,
  name: 'one_statement_claims',
  sql: (schema) => `
CREATE FUNCTION ${schema}.${claimFunctionSignature(schema)}BEGIN
  IF p_limit <= 0 THEN
    RETURN;
  END IF;
${partyClaimLock(schema)}  RETURN QUERY
${fairClaimQuery(schema)}END
$claim$;
`,
};
