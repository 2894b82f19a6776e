import type { HandoffJobClaim, HandoffJobQuery, HandoffJobRow } from './handoff-job-spec.js';

/** Earliest `next_attempt_at` first, ties by id. */
export const byNextAttemptThenId = (a: HandoffJobRow, b: HandoffJobRow): number =>
  a.next_attempt_at === b.next_attempt_at
    ? a.id < b.id
      ? -1
      : a.id > b.id
        ? 1
        : 0
    : a.next_attempt_at < b.next_attempt_at
      ? -1
      : 1;

/** Whether a job is in flight at `leaseNow`: queued with a lease that has not ended. */
export const inFlight = (job: HandoffJobRow, leaseNow: string): boolean =>
  job.status === 'queued' && job.lease_until !== null && job.lease_until > leaseNow;

/** Whether a job matches a query's environment, account and party. */
export const matchesQuery = (job: HandoffJobRow, query: HandoffJobQuery): boolean =>
  job.environment === query.environment &&
  (query.account === undefined || job.account === query.account) &&
  (query.party === undefined || job.party === query.party);

const increment = (counts: Map<string, number>, key: string): void => {
  counts.set(key, (counts.get(key) ?? 0) + 1);
};

/**
 * The memory of turns of one (environment, party): each account's last claim of the
 * party, as a number that grows with every claim (a claim sequence, not a time).
 */
export interface PartyTurns {
  /** The account's last claim; undefined when the party never served it. */
  lastClaim(account: string): number | undefined;
}

/** A due job offered to a claim, on its account's turn. */
interface Offered {
  readonly job: HandoffJobRow;
  readonly turn: number;
  readonly last: number | undefined;
}

/** Lower turn first, then the account served longest ago (never served first), then due, id. */
const byTurn = (a: Offered, b: Offered): number =>
  a.turn - b.turn ||
  (a.last === b.last
    ? 0
    : a.last === undefined
      ? -1
      : b.last === undefined
        ? 1
        : a.last - b.last) ||
  byNextAttemptThenId(a.job, b.job);

/**
 * The jobs a claim leases, chosen from the open ones as `HandoffJobClaim` says: due
 * queued jobs with a free lease, at most `max_in_flight` minus the party's jobs in flight
 * (every account, every owner), at most `max_per_account` minus an account's in flight,
 * accounts taking turns (ties between equal turns by `turns`, when the claim names its
 * party). Returns them in the order taken, before leasing.
 */
export function chooseHandoffClaim(
  open: Iterable<HandoffJobRow>,
  claim: HandoffJobClaim,
  turns: PartyTurns | undefined,
): HandoffJobRow[] {
  const accountCap = claim.max_per_account ?? Infinity;
  const ended = new Set(claim.ended ?? []);
  const busyAccounts = new Map<string, number>();
  let busyParty = 0;
  const dueByAccount = new Map<string, HandoffJobRow[]>();
  for (const job of open) {
    if (job.status !== 'queued' || job.environment !== claim.environment) continue;
    if (claim.party !== undefined && job.party !== claim.party) continue;
    if (inFlight(job, claim.lease_now)) {
      // The claimer's own call that is over holds its lease, not a slot.
      if (job.lease_owner === claim.owner && ended.has(job.id)) continue;
      busyParty += 1;
      increment(busyAccounts, job.account);
    } else if (
      job.next_attempt_at <= claim.due_at &&
      (claim.account === undefined || job.account === claim.account)
    ) {
      const due = dueByAccount.get(job.account);
      if (due) due.push(job);
      else dueByAccount.set(job.account, [job]);
    }
  }
  const size = Math.min(claim.limit, (claim.max_in_flight ?? Infinity) - busyParty);
  if (size <= 0) return [];
  // Each account offers its earliest due jobs up to its share, on turns a + r.
  const offered: Offered[] = [];
  for (const [account, due] of dueByAccount) {
    const busy = busyAccounts.get(account) ?? 0;
    const share = Math.min(size, accountCap - busy);
    if (share <= 0) continue;
    const last = turns?.lastClaim(account);
    due
      .sort(byNextAttemptThenId)
      .slice(0, share)
      .forEach((job, index) => offered.push({ job, turn: busy + index + 1, last }));
  }
  return offered
    .sort(byTurn)
    .slice(0, size)
    .map(({ job }) => job);
}

/**
 * The accounts a claim served, in the order their turns ended: by the position of each
 * one's last job in `taken` (the order {@link chooseHandoffClaim} took them).
 */
export function servedAccounts(taken: readonly HandoffJobRow[]): string[] {
  const last = new Map<string, number>();
  taken.forEach((job, position) => last.set(job.account, position));
  return [...last.entries()].sort(([, a], [, b]) => a - b).map(([account]) => account);
}
