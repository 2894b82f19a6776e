import type { HandoffJobClaim, HandoffJobRow } from '@programrun/engine';
import { PREPARED, PREPARED_WRITE, type SqlExecutor } from '../sql/sql-database.js';

/** Earliest `next_attempt_at` first, ties by id (as JavaScript compares strings). */
export const byNextAttemptThenId = (a: HandoffJobRow, b: HandoffJobRow): number =>
  a.next_attempt_at === b.next_attempt_at
    ? a.id < b.id
      ? -1
      : 1
    : a.next_attempt_at < b.next_attempt_at
      ? -1
      : 1;

/** The parameters of a claim's statement, as placeholders (`$n`). */
type ClaimParams = Readonly<
  Record<
    'environment' | 'due' | 'now' | 'limit' | 'cap' | 'share' | 'owner' | 'until' | 'ended',
    string
  >
>;

/**
 * The fair claim of a claim naming no party (the sandbox's) in one statement; a party's
 * claim is migration 11's `claim_handoff_jobs`, which adds the party's advisory lock, its
 * `max_in_flight` and its memory of turns to the same steps. `queued` filters the jobs
 * offered (the environment, and the account when the claim names one); the parameters are
 * those of {@link ClaimParams}:
 *
 * - `groups`: each (party, account) with queued jobs, by a skip scan of
 *   `handoff_jobs_queued_by_party` (one index probe per pair, however long its backlog);
 * - `busy`: jobs in flight per account, every owner's but the claimer's `ended` ones;
 * - `room`: how many the claim may take: `limit`, or less to keep what is in flight within
 *   `max_in_flight`;
 * - `offered`: each pair's earliest due free jobs, up to the room, ranked within their account;
 * - `chosen`: each account's remaining share (`max_per_account`), lowest turn (in flight +
 *   rank) first, then earliest due, then id;
 * - `locked`: what no other transaction is claiming (`FOR UPDATE SKIP LOCKED`, the lease
 *   checked again on the row as locked), each chosen job looked up by its id (never a
 *   scan of the whole queue), then `leased` with one more call counted.
 */
const claimStatement = (schema: string, columns: string, queued: string, p: ClaimParams) => `
WITH RECURSIVE groups AS (
  (SELECT party, account FROM ${schema}.handoff_jobs
   WHERE status = 'queued' AND ${queued}
   ORDER BY party, account LIMIT 1)
  UNION ALL
  SELECT following.party, following.account FROM groups previous
  CROSS JOIN LATERAL (
    SELECT party, account FROM ${schema}.handoff_jobs
    WHERE status = 'queued' AND ${queued}
      AND (party, account) > (previous.party, previous.account)
    ORDER BY party, account LIMIT 1
  ) following
),
busy AS (
  SELECT account, count(*)::int AS held FROM ${schema}.handoff_jobs
  WHERE status = 'queued' AND environment = ${p.environment}
    AND lease_until IS NOT NULL AND lease_until > ${p.now}
    AND NOT (lease_owner = ${p.owner} AND id = ANY(${p.ended}::text[]))
  GROUP BY account
),
room AS (
  SELECT CASE WHEN ${p.cap}::int IS NULL THEN ${p.limit}::int
    ELSE greatest(0, least(${p.limit}::int, ${p.cap}::int - coalesce(sum(held), 0)::int)) END AS size
  FROM busy
),
offered AS (
  SELECT o.id, o.account, o.next_attempt_at,
    row_number() OVER (PARTITION BY o.account ORDER BY o.next_attempt_at, o.id) AS rank
  FROM groups g CROSS JOIN room r
  CROSS JOIN LATERAL (
    SELECT id, account, next_attempt_at FROM ${schema}.handoff_jobs
    WHERE status = 'queued' AND ${queued} AND party = g.party AND account = g.account
      AND next_attempt_at <= ${p.due} AND (lease_until IS NULL OR lease_until <= ${p.now})
    ORDER BY next_attempt_at, id
    LIMIT r.size
  ) o
),
chosen AS (
  SELECT o.id FROM offered o
  LEFT JOIN busy b ON b.account = o.account
  WHERE ${p.share}::int IS NULL OR o.rank <= ${p.share}::int - coalesce(b.held, 0)
  ORDER BY coalesce(b.held, 0) + o.rank, o.next_attempt_at, o.id
  LIMIT (SELECT size FROM room)
),
locked AS (
  SELECT j.id FROM chosen c CROSS JOIN LATERAL (
    SELECT id FROM ${schema}.handoff_jobs
    WHERE id = c.id AND status = 'queued' AND (lease_until IS NULL OR lease_until <= ${p.now})
    FOR UPDATE SKIP LOCKED
  ) j
)
UPDATE ${schema}.handoff_jobs AS j
SET calls = j.calls + 1, lease_owner = ${p.owner}, lease_until = ${p.until}
FROM locked WHERE j.id = locked.id
RETURNING ${columns}`;

/**
 * A party's claim in one statement (migration 11's `claim_handoff_jobs`): the party's
 * advisory lock, then the claim. Committing by itself when it is the write of a
 * single-write unit of work: one round trip.
 */
async function claimPartyJobs(
  sql: SqlExecutor,
  schema: string,
  columns: readonly string[],
  claim: HandoffJobClaim & { readonly party: string },
): Promise<HandoffJobRow[]> {
  const { rows } = await sql.query<HandoffJobRow>(
    `SELECT ${columns.join(', ')}
     FROM ${schema}.claim_handoff_jobs($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      claim.environment,
      claim.party,
      claim.account ?? null,
      claim.due_at,
      claim.lease_now,
      claim.limit,
      claim.max_in_flight ?? null,
      claim.max_per_account ?? null,
      claim.owner,
      claim.lease_until,
      claim.ended ?? [],
    ],
    PREPARED_WRITE,
  );
  return rows;
}

/**
 * Leases due jobs as `HandoffJobOperations.claimHandoffJobs` says; returns them earliest
 * due first. A claim of one party first takes a transaction-scoped advisory lock on
 * (schema, environment, party), held until it commits: claims of one party on every host
 * take turns, each counting the leases the previous one committed, so two hosts claiming
 * at once never both take the party's last slot (`FOR UPDATE SKIP LOCKED` alone keeps
 * them from taking the same job, not from exceeding `max_in_flight` together), and each
 * reads the memory of turns the previous one wrote. That claim is one statement (the lock
 * and the claim in one function); a claim of no party (the sandbox's) takes no lock.
 */
export async function claimHandoffJobs(
  sql: SqlExecutor,
  schema: string,
  columns: readonly string[],
  claim: HandoffJobClaim,
): Promise<HandoffJobRow[]> {
  if (claim.limit <= 0) return [];
  if (claim.party !== undefined) {
    const rows = await claimPartyJobs(sql, schema, columns, { ...claim, party: claim.party });
    return rows.sort(byNextAttemptThenId);
  }
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const environment = param(claim.environment);
  const ofAccount = claim.account === undefined ? '' : ` AND account = ${param(claim.account)}`;
  const statement = claimStatement(
    schema,
    columns.map((column) => `j.${column}`).join(', '),
    `environment = ${environment}${ofAccount}`,
    {
      environment,
      due: param(claim.due_at),
      now: param(claim.lease_now),
      limit: param(claim.limit),
      cap: param(claim.max_in_flight ?? null),
      share: param(claim.max_per_account ?? null),
      owner: param(claim.owner),
      until: param(claim.lease_until),
      ended: param(claim.ended ?? []),
    },
  );
  const { rows } = await sql.query<HandoffJobRow>(statement, params, PREPARED);
  return rows.sort(byNextAttemptThenId);
}
