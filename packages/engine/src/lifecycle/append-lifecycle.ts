import type { Transaction } from '../kernel/transaction.js';
import type { DeliveryWakeup } from '../outbox/delivery-wakeup.js';
import { enqueueEvents } from '../outbox/enqueue-events.js';
import type { Scope } from '../store/store-v1.js';
import { webhookEventOf, type WebhookEventRun } from '../webhooks/webhook-event.js';
import type { LifecycleRecord } from './lifecycle-record.js';

/**
 * Appends lifecycle records and, in the same transaction, their events to the outbox: the
 * one way the engine writes history, so no record exists without its event. Subscribed
 * dispatchers are woken once the transaction commits. The events keep the run's trace
 * context (`traceContext`), so their deliveries join the run's trace.
 */
export async function appendLifecycle(
  transaction: Transaction,
  scope: Scope,
  run: WebhookEventRun,
  records: readonly LifecycleRecord[],
  deliveries: DeliveryWakeup,
  traceContext?: string | null,
): Promise<void> {
  if (records.length === 0) return;
  await transaction.tx.appendRecords(scope, records);
  const events = records.map((record) => webhookEventOf(record, run, scope.environment));
  const queued = await enqueueEvents(
    transaction.tx,
    scope,
    events,
    deliveries.dueAt(scope.environment),
    traceContext ? { traceContext } : {},
  );
  if (queued > 0) deliveries.afterCommit(transaction);
}
