// Every approval the account's runs wait on, as rows of the Approvals page: read from
// `GET /v1/program-runs?awaiting=approval`, every page. Pure but for the fetch passed in;
// unit-tested in test/features-approvals.test.ts.
import type { AwaitingDecision, ListPage, ProgramRun } from '../../api/types.js';
import { can } from '../../auth/can.js';

/** One pending approval: a run waiting on an approval step. */
export interface PendingApproval {
  readonly runId: string;
  readonly scenarioId: string;
  readonly step: string;
  /** The parties that may approve. */
  readonly approvers: readonly string[];
  /** `1 of 2`: approvals so far of the quorum. */
  readonly quorum: string;
  /** Who decided so far, oldest first. */
  readonly decisions: readonly AwaitingDecision[];
  /** When the approval expires, on the environment's clock; null without a deadline. */
  readonly deadline: string | null;
  /** Whether the principal's scopes let it decide (the API still checks). */
  readonly mayDecide: boolean;
}

/** Most pages read (100 runs each) before giving up on a list that never ends. */
export const MAX_PAGES = 200;

/** The query of one page of runs awaiting an approval. */
export function pendingQuery(startingAfter: string | undefined) {
  return { awaiting: 'approval', limit: 100, starting_after: startingAfter };
}

/** Every item of a paged list, following `has_more` from the last id of each page. */
export async function allPages<Item extends { id: string }>(
  page: (startingAfter: string | undefined) => Promise<ListPage<Item>>,
  maxPages = MAX_PAGES,
): Promise<Item[]> {
  const items: Item[] = [];
  let after: string | undefined;
  for (let count = 0; count < maxPages; count += 1) {
    const { data, has_more } = await page(after);
    items.push(...data);
    const last = data.at(-1)?.id;
    if (!has_more || last === undefined || last === after) return items;
    after = last;
  }
  return items;
}

/** The rows of the runs that wait on an approval (others are skipped), in list order. */
export function pendingApprovals(
  runs: readonly ProgramRun[],
  scopes: readonly string[],
): PendingApproval[] {
  const seen = new Set<string>();
  return runs.flatMap((run) => {
    const awaiting = run.awaiting;
    if (awaiting?.kind !== 'approval' || seen.has(run.id)) return [];
    seen.add(run.id);
    const approvers = awaiting.approvers ?? [];
    return [
      {
        runId: run.id,
        scenarioId: run.scenario_id,
        step: awaiting.step,
        approvers,
        quorum: `${awaiting.approvals ?? 0} of ${awaiting.quorum ?? 1}`,
        decisions: awaiting.decisions ?? [],
        deadline: awaiting.deadline,
        mayDecide: can(scopes, 'approvals:decide', approvers),
      },
    ];
  });
}
