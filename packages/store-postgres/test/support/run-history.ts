// A run as a host serves it: GET /v1/program-runs/:id and every lifecycle record of
// GET /v1/program-runs/:id/events.
import type { LifecycleRecord, RunRecord } from '@programrun/engine';
import type { ApiClient } from './api-client.js';

/** A run and its whole history, read over HTTP. */
export interface RunHistory {
  readonly run: RunRecord;
  readonly records: readonly LifecycleRecord[];
}

/**
 * Reads a run and all its lifecycle records (pages of 1000 by `after_sequence`); throws
 * when the host does not answer 200.
 *
 * @example
 * ```ts
 * const { run, records } = await readRunHistory(client, 'prun_123');
 * ```
 */
export async function readRunHistory(client: ApiClient, runId: string): Promise<RunHistory> {
  const runAnswer = await client.call<RunRecord>('GET', `/v1/program-runs/${runId}`);
  if (runAnswer.status !== 200) {
    throw new Error(`GET run ${runId}: ${runAnswer.status} ${JSON.stringify(runAnswer.body)}`);
  }
  const records: LifecycleRecord[] = [];
  for (let page = 0; page < 100; page += 1) {
    const answer = await client.call<{ data: LifecycleRecord[]; has_more: boolean }>(
      'GET',
      `/v1/program-runs/${runId}/events?limit=1000&after_sequence=${records.length}`,
    );
    if (answer.status !== 200) throw new Error(`GET events of ${runId}: ${answer.status}`);
    records.push(...answer.body.data);
    if (!answer.body.has_more) break;
  }
  return { run: runAnswer.body, records };
}
