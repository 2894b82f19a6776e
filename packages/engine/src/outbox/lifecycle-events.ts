import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { StoredRun } from '../store/run-spec.js';
import type { WebhookEventRow } from '../store/webhook-spec.js';
import { webhookEventOf, type WebhookEventRun } from '../webhooks/webhook-event.js';
import { outboxRows } from './enqueue-events.js';

/** The run as its events name it: id, scenario and the scenario's digest. */
export const eventRunOf = (run: StoredRun): WebhookEventRun => ({
  id: run.id,
  scenario_id: run.scenario_id,
  scenario_digest: run.record.scenario_digest,
});

/**
 * The outbox events of a run's lifecycle records, one per record with the same id, each
 * with its delivered body (derived from the record, the run's scenario and environment
 * alone, so a store may keep the record once and derive the body when it is read) and the
 * run's trace context.
 *
 * @example
 * ```ts
 * await tx.insertWebhookEvents(lifecycleEventRows(run, records));
 * ```
 */
export function lifecycleEventRows(
  run: StoredRun,
  records: readonly LifecycleRecord[],
): WebhookEventRow[] {
  const named = eventRunOf(run);
  return outboxRows(
    { account: run.account, environment: run.environment },
    records.map((record) => webhookEventOf(record, named, run.environment)),
    run.trace_context,
  );
}
