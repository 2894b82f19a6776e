import type { HandoffJobClaim, HandoffJobRow } from '@programrun/engine';
import { PREPARED, type SqlExecutor } from '../sql/sql-database.js';

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
  Record<'environment' | 'due' | 'now' | 'limit' | 'cap' | 'share' | 'owner' | 'until', string>
> & {
  /** The claim's party: its memory of turns is read and written. Absent: neither. */
  readonly party: string | undefined;
};

/**
 * The memory of turns a claim naming its party writes: `served`, each account that got a
 * job (its row locked), numbered in the order its turn ended (its last job's position);
 * `top`, the party's greatest last claim (`handoff_claim_turns_latest`); `remembered`,
 * each served account's last claim set to the top plus its number.
 */
const rememberTurns = (schema: string, p: ClaimParams, party: string): string => `,
served AS (
  SELECT c.account, row_number() OVER (ORDER BY max(c.position)) AS turn
  FROM chosen c JOIN locked l ON l.id = c.id
  GROUP BY c.account
),
top AS (
  SELECT coalesce(max(last_claim), 0) AS last_claim FROM ${schema}.handoff_claim_turns
  WHERE environment = ${p.environment} AND party = ${party}
),
remembered AS (
  INSERT INTO ${schema}.handoff_claim_turns (environment, party, account, last_claim)
  SELECT ${p.environment}, ${party}, s.account, t.last_claim + s.turn
  FROM served s CROSS JOIN top t
  ORDER BY s.account
  ON CONFLICT (environment, party, account) DO UPDATE SET last_claim = excluded.last_claim
)`;

/**
 * The fair claim of `claimHandoffJobs` in one statement. Filters (`queued` and `busy`) are
 * built from the claim; the parameters are those of {@link ClaimParams}:
 *
 * - `groups`: each (party, account) with queued jobs, by a skip scan of
 *   `handoff_jobs_queued_by_party` (one index probe per pair, however long its backlog);
 * - `busy`: jobs in flight per account (`handoff_jobs_leased`), every owner's;
 * - `room`: how many the claim may take: `limit`, or less to keep the party's in flight
 *   within `max_in_flight`;
 * - `offered`: each pair's earliest due free jobs, up to the room, ranked within their account;
 * - `chosen`: each account's remaining share, lowest turn (in flight + rank) first, ties to
 *   the account whose last claim of the party is oldest (`handoff_claim_turns`, never
 *   served first; only when the claim names its party), then earliest due, then id;
 *   numbered by `position` in that order;
 * - `locked`: what no other transaction is claiming (`FOR UPDATE SKIP LOCKED`, the lease
 *   checked again on the row as locked), each chosen job looked up by its id (never a
 *   scan of the whole queue), then `leased` with one more call counted;
 * - with a party, the accounts served are remembered ({@link rememberTurns}).
 */
const claimStatement = (
  schema: string,
  columns: string,
  queued: string,
  busy: string,
  p: ClaimParams,
): string => `
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
  WHERE status = 'queued' AND ${busy} AND lease_until IS NOT NULL AND lease_until > ${p.now}
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
  SELECT o.id, o.account,
    row_number() OVER (
      ORDER BY coalesce(b.held, 0) + o.rank,
        ${p.party === undefined ? 'NULL::bigint' : 't.last_claim'} NULLS FIRST,
        o.next_attempt_at, o.id
    ) AS position
  FROM offered o
  LEFT JOIN busy b ON b.account = o.account${
    p.party === undefined
      ? ''
      : `
  LEFT JOIN ${schema}.handoff_claim_turns t
    ON t.environment = ${p.environment} AND t.party = ${p.party} AND t.account = o.account`
  }
  WHERE ${p.share}::int IS NULL OR o.rank <= ${p.share}::int - coalesce(b.held, 0)
  ORDER BY position
  LIMIT (SELECT size FROM room)
),
locked AS (
  SELECT j.id FROM chosen c CROSS JOIN LATERAL (
    SELECT id FROM ${schema}.handoff_jobs
    WHERE id = c.id AND status = 'queued' AND (lease_until IS NULL OR lease_until <= ${p.now})
    FOR UPDATE SKIP LOCKED
  ) j
),
leased AS (
  UPDATE ${schema}.handoff_jobs AS j
  SET calls = j.calls + 1, lease_owner = ${p.owner}, lease_until = ${p.until}
  FROM locked WHERE j.id = locked.id
  RETURNING ${columns}
)${p.party === undefined ? '' : rememberTurns(schema, p, p.party)}
SELECT * FROM leased`;

/**
 * Leases due jobs as `HandoffJobOperations.claimHandoffJobs` says; returns them earliest
 * due first. A claim of one party first takes a transaction-scoped advisory lock on
 * (schema, environment, party), held until it commits: claims of one party on every host
 * take turns, each counting the leases the previous one committed, so two hosts claiming
 * at once never both take the party's last slot (`FOR UPDATE SKIP LOCKED` alone keeps
 * them from taking the same job, not from exceeding `max_in_flight` together), and each
 * reads the memory of turns the previous one wrote.
 */
export async function claimHandoffJobs(
  sql: SqlExecutor,
  schema: string,
  columns: readonly string[],
  claim: HandoffJobClaim,
): Promise<HandoffJobRow[]> {
  if (claim.limit <= 0) return [];
  if (claim.party !== undefined) {
    await sql.query(
      'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
      [`programrun:handoff-claim:${schema}:${claim.environment}:${claim.party}`],
      PREPARED,
    );
  }
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const environment = param(claim.environment);
  const party = claim.party === undefined ? undefined : param(claim.party);
  const ofParty = party === undefined ? '' : ` AND party = ${party}`;
  const ofAccount = claim.account === undefined ? '' : ` AND account = ${param(claim.account)}`;
  const statement = claimStatement(
    schema,
    columns.map((column) => `j.${column}`).join(', '),
    `environment = ${environment}${ofParty}${ofAccount}`,
    `environment = ${environment}${ofParty}`,
    {
      environment,
      party,
      due: param(claim.due_at),
      now: param(claim.lease_now),
      limit: param(claim.limit),
      cap: param(claim.max_in_flight ?? null),
      share: param(claim.max_per_account ?? null),
      owner: param(claim.owner),
      until: param(claim.lease_until),
    },
  );
  const { rows } = await sql.query<HandoffJobRow>(statement, params, PREPARED);
  return rows.sort(byNextAttemptThenId);
}
