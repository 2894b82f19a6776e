// Drives runs over HTTP to the step a test races on: created, then waited on (timers fire
// on their own) and approved along the way.
import type { RunRecord } from '@programrun/engine';
import type { ApiClient } from './api-client.js';
import { waitFor } from './wait-for.js';

/**
 * The maker who submits bank payouts; the release approval (maker-checker) refuses them.
 *
 * @example
 * ```ts
 * const body = { step: 'release_approval', decision: 'approve', approver: MAKER }; // answered 409
 * ```
 */
export const MAKER = 'ops:maker';

/**
 * Polls a run until `done(run)` holds; throws after `timeoutMs`.
 *
 * @example
 * ```ts
 * const run = await waitForRun(client, id, (run) => run.status === 'completed');
 * ```
 */
export function waitForRun(
  client: ApiClient,
  runId: string,
  done: (run: RunRecord) => boolean,
  timeoutMs = 20_000,
): Promise<RunRecord> {
  return waitFor(
    `run ${runId} reaching the expected state`,
    async () => {
      const { status, body } = await client.call<RunRecord>('GET', `/v1/program-runs/${runId}`);
      return status === 200 && done(body) ? body : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

/**
 * Creates a run of `scenarioId` with its example inputs (and a fresh Idempotency-Key),
 * then waits until it awaits `step`.
 *
 * @example
 * ```ts
 * const run = await createRunAwaiting(client, 'wallet-delivery@v1', 'release_approval');
 * ```
 */
export async function createRunAwaiting(
  client: ApiClient,
  scenarioId: string,
  step: string,
): Promise<RunRecord> {
  const scenario = await client.call<{ example_inputs: Record<string, unknown> }>(
    'GET',
    `/v1/scenarios/${scenarioId}`,
  );
  const created = await client.call<RunRecord>('POST', '/v1/program-runs', {
    body: { scenario_id: scenarioId, inputs: scenario.body.example_inputs },
    idempotencyKey: crypto.randomUUID(),
  });
  if (created.status !== 201) throw new Error(`create ${scenarioId}: ${created.status}`);
  return waitForRun(client, created.body.id, (run) => run.awaiting?.step === step);
}

/**
 * A `bank-payout@v1` run waiting on its four-eyes `release_approval` (quorum 2, maker
 * excluded): created on `creator`, its instruction submitted on `maker`, a client whose key
 * acts as {@link MAKER} (approvals count the key's actor, not the body's name).
 *
 * @example
 * ```ts
 * const run = await payoutAwaitingRelease(hostA, hostB);
 * ```
 */
export async function payoutAwaitingRelease(
  creator: ApiClient,
  maker: ApiClient,
): Promise<RunRecord> {
  const run = await createRunAwaiting(creator, 'bank-payout@v1', 'submit_instruction');
  const submitted = await maker.call('POST', `/v1/program-runs/${run.id}/approvals`, {
    body: { step: 'submit_instruction', decision: 'approve', approver: MAKER },
  });
  if (submitted.status !== 200) throw new Error(`submit ${run.id}: ${submitted.status}`);
  return waitForRun(creator, run.id, (next) => next.awaiting?.step === 'release_approval');
}
