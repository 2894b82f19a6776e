// Fixtures of the handoff job parts of the Store spec v1 contract.
import type { HandoffJobRow, StoreV1 } from '../store/store-v1.js';

/** Creation time of every fixture job. */
export const JOB_T0 = '2026-01-01T00:00:00.000Z';

/** `value` seconds after {@link JOB_T0} (under an hour): ISO times that sort as they compare. */
export const at = (value: number): string =>
  `2026-01-01T00:${String(Math.floor(value / 60)).padStart(2, '0')}:${String(value % 60).padStart(2, '0')}.000Z`;

/**
 * A queued job `id` of `account` for `party`, due at second `due` (override any field).
 * Its run, step and attempt come from the id unless overridden.
 */
export function handoffJob(
  id: string,
  account: string,
  party: string,
  due: number,
  overrides: Partial<HandoffJobRow> = {},
): HandoffJobRow {
  return {
    id,
    run_id: `prun_${id}`,
    account,
    environment: 'live',
    party,
    step: 'deliver',
    attempt: 1,
    idempotency_key: `pik_${id}`,
    request: {
      run_id: `prun_${id}`,
      step: 'deliver',
      party,
      action: 'deliver_wallet',
      data: { amount: '125.00', nested: { ok: true, none: null } },
      idempotency_key: `pik_${id}`,
    },
    deadline: at(3_000),
    status: 'queued',
    calls: 0,
    next_attempt_at: at(due),
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: JOB_T0,
    updated_at: JOB_T0,
    ...overrides,
  };
}

/** Inserts jobs in one transaction. */
export const seedJobs = (store: StoreV1, jobs: readonly HandoffJobRow[]): Promise<void> =>
  store.transaction((tx) => tx.insertHandoffJobs(jobs));

/** Every job of the given runs, by id. */
export async function jobsOf(
  store: StoreV1,
  runIds: readonly string[],
): Promise<Map<string, HandoffJobRow>> {
  const jobs = new Map<string, HandoffJobRow>();
  await store.transaction(async (tx) => {
    for (const runId of runIds) {
      for (const job of await tx.handoffJobsOfRun(runId)) jobs.set(job.id, job);
    }
  });
  return jobs;
}
