import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { StoredRun } from '../store/run-spec.js';
import type { WebhookEventRow } from '../store/webhook-spec.js';
import {
  webhookEventBody,
  webhookEventOf,
  type WebhookEventRun,
} from '../webhooks/webhook-event.js';

/** The run as its events name it: id, scenario and the scenario's digest. */
export const eventRunOf = (run: StoredRun): WebhookEventRun => ({
  id: run.id,
  scenario_id: run.scenario_id,
  scenario_digest: run.record.scenario_digest,
});

/**
 * The outbox events of a run's lifecycle records, one per record with the same id, each
 * with its delivered body (derived from the record, the run's scenario and environment
 * alone, so a store may keep the record once and derive the body when it is read; these
 * rows derive it when `body` is first read) and the run's trace context.
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
  return records.map((record) => {
    const event = webhookEventOf(record, named, run.environment);
    // Derived when first read: most events are never delivered or listed by the host that
    // wrote them, and the body is the record's canonical JSON written out once more.
    let body: string | undefined;
    return {
      id: event.id,
      account: run.account,
      environment: run.environment,
      type: event.type,
      created: event.created,
      run_id: run.id,
      sequence: event.sequence,
      get body() {
        return (body ??= webhookEventBody(event));
      },
      ...(run.trace_context ? { trace_context: run.trace_context } : {}),
    };
  });
}
