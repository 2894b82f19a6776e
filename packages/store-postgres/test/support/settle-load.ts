// After the last restart: every Idempotency-Key of a load answered, every run released
// and finished, so the final state can be checked whole.
import type { RunRecord } from '@programrun/engine';
import type { ApiClient } from './api-client.js';
import { RELEASE_APPROVAL } from './create-signal-load.js';
import { recordAnswer, type LoadLedger } from './load-ledger.js';
import { waitFor } from './wait-for.js';

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>) {
  for (let index = 0; index < items.length; index += size) {
    await Promise.all(items.slice(index, index + size).map(work));
  }
}

/**
 * Sends every creation of the ledger again, with its key and body, until it answers 2xx
 * (409 while another request holds the key), filing each answer. Afterwards every key
 * has at least one acknowledged run id.
 *
 * @example
 * ```ts
 * await answerEveryKey(client, ledger);
 * ```
 */
export async function answerEveryKey(client: ApiClient, ledger: LoadLedger): Promise<void> {
  await inBatches([...ledger.bodies], 8, async ([key, body]) => {
    await waitFor(
      `a 2xx for Idempotency-Key ${key}`,
      async () => {
        const answer = await client.call('POST', '/v1/program-runs', { body, idempotencyKey: key });
        recordAnswer(ledger, `final create ${key}`, answer, { key, expected: [409] });
        return answer.status >= 200 && answer.status < 300 ? true : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 250 },
    );
  });
}

/**
 * Approves every run waiting on its release approval until all of them are completed
 * (their partner timers fired); throws after `timeoutMs`.
 *
 * @example
 * ```ts
 * await releaseUntilCompleted(client, ledger, runIds);
 * ```
 */
export async function releaseUntilCompleted(
  client: ApiClient,
  ledger: LoadLedger,
  runIds: readonly string[],
  timeoutMs = 30_000,
): Promise<void> {
  let pending = [...runIds];
  await waitFor(
    `${pending.length} runs completed`,
    async () => {
      const still: string[] = [];
      await inBatches(pending, 16, async (id) => {
        const { status, body } = await client.call<RunRecord>('GET', `/v1/program-runs/${id}`);
        if (status === 200 && body.status === 'completed') return;
        still.push(id);
        if (body.awaiting?.step !== RELEASE_APPROVAL.step) return;
        const answer = await client.call('POST', `/v1/program-runs/${id}/approvals`, {
          body: RELEASE_APPROVAL,
        });
        recordAnswer(ledger, `final approve ${id}`, answer, { expected: [409] });
      });
      pending = still;
      return pending.length === 0 ? true : undefined;
    },
    { timeoutMs, intervalMs: 300 },
  );
}
